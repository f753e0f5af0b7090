/** The rate limits' counts kept in PostgreSQL, so that every replica counts against one budget. */
import { RateLimiterMemory, RateLimiterPostgres } from "rate-limiter-flexible";
import { type Database, DatabaseUnavailableError } from "~/db/database.server";
import type { LimitStore } from "~/http/limits.server";

/** How long a limit waits for the database before counting in this replica's memory instead. */
const COUNT_WAIT_MS = 3_000;

/**
 * The limits counted once for the whole site: rate-limiter-flexible's PostgreSQL store, one row
 * per key in `rate_limits` (made by the migration, so `tableCreated`), each take an atomic
 * upsert. While the database is unreachable, or slower than COUNT_WAIT_MS, each replica counts
 * in its own memory (the library's `insuranceLimiter`): the limits then hold per replica, as
 * without DATABASE_URL, rather than refusing everyone or no one. A key's row holds the client's
 * address until an hour after its window ends, when the library's sweep deletes it.
 */
export function databaseLimitStore(database: Database): LimitStore {
  // The library calls `query` on its store client; this one refuses at once while the database
  // is known to be down, so a visitor never waits on a connection attempt.
  const storeClient = {
    query(config: { text: string; values?: unknown[] }) {
      const state = database.state();
      if (state.status !== "ok") {
        return Promise.reject(
          new DatabaseUnavailableError(state.status === "unreachable" ? state.cause : "starting"),
        );
      }
      return rejectAfter(database.query(config.text, config.values), COUNT_WAIT_MS);
    },
  };
  return {
    limiter: (options) =>
      new RateLimiterPostgres({
        ...options,
        storeClient,
        storeType: "pool",
        tableName: "rate_limits",
        tableCreated: true,
        insuranceLimiter: new RateLimiterMemory(options),
      }),
  };
}

function rejectAfter<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DatabaseUnavailableError(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
