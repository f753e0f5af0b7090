/** The database for an operator's command, connected and migrated, or one line saying why not and exit 1. */
import { parseConnectionString } from "~/db/connection-string.server";
import { createDatabase, type Database } from "~/db/database.server";
import { readMigrationsOrExit } from "~/db/migrations.server";

/** How long a command waits for the database to connect and migrate before it gives up. */
const CONNECT_WAIT_MS = 10_000;

/**
 * The database for an operator's command (`npm run leads`, `npm run vitals`), connected and
 * migrated; stop it when done. When it cannot be had (DATABASE_URL refused, the database
 * unreachable, or no answer within CONNECT_WAIT_MS), one line says why, naming DATABASE_URL
 * and never its password, and the process exits 1: a command reports rather than retrying like
 * the server.
 */
export async function openCommandDatabase(command: string, url: string): Promise<Database> {
  const parsed = parseConnectionString(url);
  if (!parsed.ok) exitWith(`${command}: DATABASE_URL ${parsed.problem}`);
  const database = createDatabase({
    url,
    poolSize: 2,
    migrations: readMigrationsOrExit(command),
    log: () => {},
  });
  database.start();
  const cause = await firstFailure(database);
  if (cause === undefined) return database;
  // Not stopped first: a connection still waiting (on another process's migration, say) ends
  // with the process, which a stop could wait on.
  exitWith(
    `${command}: cannot connect to ${parsed.described}: ${cause}; start the database or fix DATABASE_URL`,
  );
}

/**
 * Resolves undefined once `database` is ready, or with the cause of its first failed attempt, or
 * of no answer in time. Its timers keep the process alive until then.
 */
function firstFailure(database: Database): Promise<string | undefined> {
  return new Promise((resolve) => {
    const settle = (cause?: string) => {
      clearInterval(check);
      clearTimeout(deadline);
      resolve(cause);
    };
    const check = setInterval(() => {
      const state = database.state();
      if (state.status === "unreachable") settle(state.cause);
    }, 25);
    const deadline = setTimeout(
      () => settle(`no answer within ${CONNECT_WAIT_MS / 1000} s`),
      CONNECT_WAIT_MS,
    );
    database.ready().then(
      () => settle(),
      () => settle("stopped"),
    );
  });
}

function exitWith(line: string): never {
  console.error(line);
  process.exit(1);
}
