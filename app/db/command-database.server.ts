import { createDatabase, type Database } from "~/db/database.server";
import { MIGRATIONS } from "~/db/migrations.server";

/**
 * The database for an operator's command (`npm run vitals`): connected and migrated, or an
 * error with the cause (never the password) as soon as the first attempt fails; a command
 * reports and exits rather than retrying like the server. Stop it when done.
 */
export async function openCommandDatabase(url: string): Promise<Database> {
  const database = createDatabase({ url, poolSize: 1, migrations: MIGRATIONS, log: () => {} });
  database.start();
  const failed = new Promise<never>((_, reject) => {
    const check = setInterval(() => {
      const state = database.state();
      if (state.status !== "unreachable") return;
      clearInterval(check);
      reject(new Error(`cannot connect to the database (${state.cause})`));
    }, 25);
    void database.ready().then(
      () => clearInterval(check),
      () => clearInterval(check),
    );
  });
  try {
    await Promise.race([database.ready(), failed]);
    return database;
  } catch (error) {
    await database.stop();
    throw error;
  }
}
