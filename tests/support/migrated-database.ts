import { createDatabase, type Database } from "~/db/database.server";
import { readMigrations } from "~/db/migrations.server";

/**
 * A pool of four on the database at `url`, started and migrated (the project's migrations unless
 * others are given), quiet in the log. The caller stops it.
 */
export async function openMigratedDatabase(url: string, migrations = readMigrations()): Promise<Database> {
  const database = createDatabase({ url, poolSize: 4, migrations, log: () => {} });
  database.start();
  await database.ready();
  return database;
}
