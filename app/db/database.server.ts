/**
 * The PostgreSQL connection of one replica: its pool, its migration at start, its reachability and
 * its time limits.
 */
import pg, { type Pool, type PoolClient, type QueryResult, type QueryResultRow } from "pg";
import { parseConnectionString } from "~/db/connection-string.server";
import { describeDatabaseError } from "~/db/error-words.server";
import { describeMigration, type Migration, type MigrationOutcome, migrate } from "~/db/migrate.server";

/** `connecting` until the first connection and migration succeed; then `ok` or `unreachable`. */
export type DatabaseState =
  | { status: "connecting" }
  | { status: "ok" }
  | { status: "unreachable"; cause: string };

export class DatabaseUnavailableError extends Error {
  constructor(cause: string) {
    super(`the database is unreachable (${cause})`);
    this.name = "DatabaseUnavailableError";
  }
}

export interface Database {
  /** The pool itself, for libraries that take one (rate-limiter-flexible); prefer `query`. */
  readonly pool: Pool;
  /** One statement; fails at once with DatabaseUnavailableError before the schema is ready. */
  query<Row extends QueryResultRow = QueryResultRow>(
    text: string,
    values?: unknown[],
  ): Promise<QueryResult<Row>>;
  /** `work` inside BEGIN … COMMIT on one connection; ROLLBACK when it throws. */
  transaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T>;
  state(): DatabaseState;
  /** Resolves once connected and migrated; rejects only when stopped first. */
  ready(): Promise<void>;
  /** Connects and migrates in the background, retrying with backoff; never throws. */
  start(): void;
  stop(): Promise<void>;
}

/** Waits between connection attempts while the database cannot be reached: 1 s, doubling up to 30 s. */
const FIRST_RETRY_MS = 1_000;
const LAST_RETRY_MS = 30_000;

/**
 * Time limits that keep a page or an enquiry from waiting on a stuck database: a connection is
 * given 3 s, a lock 2 s, a statement 5 s. An enquiry waits at most 2 s for its insert, then goes
 * to the spool (~/leads/lead-service.server).
 */
const POOL_LIMITS = {
  connectionTimeoutMillis: 3_000,
  idleTimeoutMillis: 30_000,
  lock_timeout: 2_000,
  statement_timeout: 5_000,
  query_timeout: 6_000,
  keepAlive: true,
  application_name: "agency-site",
} as const;

/**
 * Whether an error says the database cannot be reached or used (network, shutdown, login,
 * missing database, timeouts), as opposed to a statement it refused.
 */
export function isConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string") {
    // SQLSTATE classes 08 (connection), 28 (login), 3D (database), 53 (resources), 57 (operator
    // intervention: shutdown, terminated), and Node's own errno codes (ECONNREFUSED, ENOTFOUND…).
    if (/^(08|28|3D|53|57)/.test(code)) return code !== "57014" || /timeout/i.test(error.message);
    if (/^E[A-Z]+$/.test(code)) return true;
  }
  return /Connection terminated|timeout exceeded|connect(ion)? ?timeout|Client has encountered a connection error/i.test(
    error.message,
  );
}

/** pg-pool's error when a query waited connectionTimeoutMillis for one of `max` busy connections. */
const POOL_BUSY = "timeout exceeded when trying to connect";
/** How often a pool that stays saturated is said again. */
export const BUSY_REPORT_MS = 60_000;

/** Whether a query waited too long for a connection of a pool whose connections were all in use. */
export function isPoolBusy(error: unknown): boolean {
  return error instanceof Error && error.message === POOL_BUSY;
}

/** One line when the pool's connections are all busy too long, again at most once a minute while it lasts. */
function createBusyReport(poolSize: number, log: (line: string) => void) {
  let saidAt = Number.NEGATIVE_INFINITY;
  return () => {
    const now = Date.now();
    if (now - saidAt < BUSY_REPORT_MS) return;
    saidAt = now;
    log(
      `database: all DATABASE_POOL_SIZE=${poolSize} connections were busy for ${POOL_LIMITS.connectionTimeoutMillis / 1000} s; enquiries meanwhile wait in the server's spool (ENQUIRY_STORE_DIR/spool): raise DATABASE_POOL_SIZE (replicas × pool size under the database's max_connections) or add replicas`,
    );
  };
}

/**
 * The PostgreSQL connection of one replica: a `pg` pool of DATABASE_POOL_SIZE connections, the
 * schema migrated at start, and its reachability said once when it changes (naming the host,
 * port and database of DATABASE_URL, never the URL).
 * TLS follows the URL's `sslmode` (and `sslrootcert`) or the `PGSSLMODE` variable.
 */
export function createDatabase(options: {
  url: string;
  poolSize: number;
  migrations: readonly Migration[];
  log?: (line: string) => void;
}): Database {
  const { poolSize, migrations, log = console.error } = options;
  const parsed = parseConnectionString(options.url);
  // By its code and fixed words, never the server's message (~/db/error-words.server).
  const causeOf = describeDatabaseError;

  let state: DatabaseState = parsed.ok
    ? { status: "connecting" }
    : { status: "unreachable", cause: `DATABASE_URL ${parsed.problem}` };
  let migrated = false;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  const readiness = createReadiness();

  const pool: Pool = new pg.Pool({
    connectionString: parsed.ok ? parsed.url : undefined,
    max: poolSize,
    ...POOL_LIMITS,
  });
  // An idle connection the server closed (a restart, pg_terminate_backend): the pool drops it
  // and opens a new one at the next query; without a listener the process would crash.
  pool.on("error", (error) => wentDown(error));

  const where = parsed.ok ? parsed.described : "DATABASE_URL";
  let outages = 0;
  const wentDown = (error: unknown) => {
    const cause = causeOf(error);
    if (state.status === "unreachable") {
      state = { status: "unreachable", cause };
      return;
    }
    const first = state.status === "connecting";
    state = { status: "unreachable", cause };
    outages += 1;
    log(
      first
        ? `database: cannot connect to ${where}: ${cause}; pages are served, enquiries wait in the server's spool (ENQUIRY_STORE_DIR/spool), and connecting is retried`
        : `database: ${where} is unreachable (${cause}); enquiries wait in the server's spool (ENQUIRY_STORE_DIR/spool) until it is back`,
    );
    if (migrated) scheduleCheck(FIRST_RETRY_MS);
  };
  const cameBack = () => {
    if (state.status === "ok") return;
    const wasDown = state.status === "unreachable";
    state = { status: "ok" };
    if (wasDown) log(`database: ${where} is reachable again`);
  };

  const reportBusy = createBusyReport(poolSize, log);
  const track = async <T>(work: () => Promise<T>): Promise<T> => {
    if (!migrated)
      throw new DatabaseUnavailableError(state.status === "unreachable" ? state.cause : "starting");
    // A query sent before an outage began may still succeed after it was noticed: only one
    // sent since says the database is back, or the log would say the outage twice.
    const outagesBefore = outages;
    try {
      const result = await work();
      if (outages === outagesBefore) cameBack();
      return result;
    } catch (error) {
      if (isPoolBusy(error)) {
        // The database answers; this replica's connections are all in use: no outage.
        reportBusy();
        throw new DatabaseUnavailableError(`all ${poolSize} connections busy`);
      }
      if (isConnectionError(error)) {
        wentDown(error);
        throw new DatabaseUnavailableError(causeOf(error));
      }
      throw error;
    }
  };

  // While unreachable, one `SELECT 1` at a growing interval notices the way back without traffic.
  let checkDelay = FIRST_RETRY_MS;
  const scheduleCheck = (delay: number) => {
    if (stopped || retry) return;
    checkDelay = delay;
    retry = setTimeout(async () => {
      retry = undefined;
      try {
        await pool.query("SELECT 1");
        cameBack();
      } catch (error) {
        if (state.status === "unreachable") state = { status: "unreachable", cause: causeOf(error) };
        scheduleCheck(Math.min(checkDelay * 2, LAST_RETRY_MS));
      }
    }, delay);
    retry.unref();
  };

  /** The connection migrating now: a stop closes it, even while it waits for another replica's lock. */
  let migrating: pg.Client | undefined;
  const connect = async (delay: number): Promise<void> => {
    if (stopped) return;
    try {
      const outcome = await migrateAlone(parsed.ok ? parsed.url : undefined, migrations, (client) => {
        migrating = client;
      });
      for (const line of describeMigration(outcome)) log(line);
      migrated = true;
      cameBack();
      readiness.resolve();
    } catch (error) {
      if (stopped) return;
      wentDown(error);
      retry = setTimeout(() => {
        retry = undefined;
        void connect(Math.min(delay * 2, LAST_RETRY_MS));
      }, delay);
      retry.unref();
    }
  };

  return {
    pool,
    query: (text, values) => track(() => pool.query(text, values)),
    transaction: (work) => track(() => inTransaction(pool, work)),
    state: () => state,
    ready: () => readiness.promise,
    start() {
      if (!parsed.ok) {
        log(
          `config: DATABASE_URL ${parsed.problem}; pages are served, enquiries wait in the server's spool (ENQUIRY_STORE_DIR/spool) until it is fixed`,
        );
        return;
      }
      void connect(FIRST_RETRY_MS);
    },
    async stop() {
      stopped = true;
      clearTimeout(retry);
      await migrating?.end().catch(() => {});
      readiness.reject(new DatabaseUnavailableError("stopped"));
      await pool.end();
    },
  };
}

/** `work` inside BEGIN … COMMIT on one connection of `pool`; ROLLBACK when it throws. */
async function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  // A connection the server ends between two of the transaction's queries (a restart, an
  // administrator) is told as an 'error' event on the checked-out client, which the pool only
  // listens for while the client is idle in it: unheard, it would end the process. The next
  // query fails with it, and the catch below discards the connection.
  const ignore = () => {};
  client.on("error", ignore);
  // The connection goes back to the pool (or is discarded) exactly once, without the listener.
  const release = (error?: Error | true) => {
    client.off("error", ignore);
    client.release(error);
  };
  try {
    await client.query("BEGIN");
    const result = await work(client);
    await client.query("COMMIT");
    release();
    return result;
  } catch (error) {
    try {
      await client.query("ROLLBACK");
      release();
    } catch (rollback) {
      release(rollback instanceof Error ? rollback : true);
    }
    throw error;
  }
}

/**
 * Migrates on a connection of its own, without the pool's time limits (see `migrate`), closed
 * afterwards; `current` is told of it while it is open, so a stop can close it sooner.
 */
async function migrateAlone(
  url: string | undefined,
  migrations: readonly Migration[],
  current: (client: pg.Client | undefined) => void,
): Promise<MigrationOutcome> {
  const client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: POOL_LIMITS.connectionTimeoutMillis,
    keepAlive: true,
    application_name: POOL_LIMITS.application_name,
  });
  // A connection cut while it migrates fails its query; without a listener the process would crash.
  client.on("error", () => {});
  current(client);
  try {
    await client.connect();
    return await migrate(client, migrations);
  } finally {
    current(undefined);
    await client.end().catch(() => {});
  }
}

/** A promise settled from outside: resolved once connected and migrated, rejected by a stop first. */
function createReadiness() {
  let resolve: () => void = () => {};
  let reject: (error: Error) => void = () => {};
  const promise = new Promise<void>((onReady, onStopped) => {
    resolve = onReady;
    reject = onStopped;
  });
  promise.catch(() => {});
  return { promise, resolve: () => resolve(), reject: (error: Error) => reject(error) };
}
