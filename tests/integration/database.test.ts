import { type AddressInfo, createServer } from "node:net";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { MIGRATION_LOCK } from "~/db/advisory-locks.server";
import { parseConnectionString } from "~/db/connection-string.server";
import { createDatabase, DatabaseUnavailableError } from "~/db/database.server";
import { describeDatabaseError } from "~/db/error-words.server";
import { readMigrations } from "~/db/migrations.server";
import { gate } from "../support/gate";
import { migrationsFolder } from "../support/migrations-folder";
import { startPostgres, TEST_DATABASE_PASSWORD, type TestPostgres } from "../support/postgres";

const folder = migrationsFolder({
  "0001-things.sql": "CREATE TABLE things (id integer PRIMARY KEY)",
  "0002-thing-names.sql": "ALTER TABLE things ADD COLUMN name text",
});
const MIGRATIONS = readMigrations(folder.dir);

let postgres: TestPostgres;
beforeAll(async () => {
  postgres = await startPostgres("pg-unit-db");
}, 60_000);
afterAll(async () => {
  folder.remove();
  await postgres?.dispose();
});

/** A database of `poolSize` connections with the test migrations, started, and the lines it logs. */
function startDatabase(url: string, poolSize: number) {
  const lines: string[] = [];
  const database = createDatabase({ url, poolSize, migrations: MIGRATIONS, log: (line) => lines.push(line) });
  database.start();
  return { database, lines };
}

describe("DATABASE_URL", () => {
  test("is described by its host, port and database only", () => {
    const parsed = parseConnectionString("postgres://site:s3cr%40t@db.example.com:5432/site?sslmode=require");
    expect(parsed.ok && parsed.described).toBe(
      "DATABASE_URL (host db.example.com, port 5432, database site)",
    );
  });

  test.each([
    ["not a url", "is not a URL"],
    ["mysql://root@db/site", "must start with postgres://"],
  ])("%s is refused with a reason", (raw, reason) => {
    const parsed = parseConnectionString(raw);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.problem).toContain(reason);
  });

  // A URL parser reads `site:2024` as the host and port and the rest as a fragment, path or
  // query; a % that does not decode made the parse throw.
  test.each([
    ["an unencoded #", "postgres://site:2024#SecretPw@db:5432/site", "SecretPw"],
    ["an unencoded /", "postgres://site:1234/secretpw@db:5432/site", "secretpw"],
    ["an unencoded ?", "postgres://site:5432?SecretPw@db:5432/site", "SecretPw"],
    ["a % escape that does not decode", "postgres://site:p%ZZsecret@db:5432/site", "ZZsecret"],
    ["a cut-off % escape", "postgres://site:Secret%E0%A4%A@db:5432/site", "Secret"],
  ])("a password with %s is refused: percent-encode it", (_, raw, secret) => {
    const parsed = parseConnectionString(raw);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.problem).toMatch(/percent-encode the password/);
    expect(JSON.stringify(parsed)).not.toContain(secret);
  });

  test("a password with an @ (the last @ ends it) and one percent-encoded are read", () => {
    expect(parseConnectionString("postgres://site:p@ss@db/site")).toMatchObject({ ok: true });
    expect(parseConnectionString("postgres://site:2024%23SecretPw@db:5432/site")).toMatchObject({
      ok: true,
      described: "DATABASE_URL (host db, port 5432, database site)",
    });
  });

  test.each([
    [
      "a wrong password",
      { code: "28P01", message: 'password authentication failed for user "site"' },
      "password authentication failed (28P01)",
    ],
    [
      "a missing database",
      { code: "3D000", message: 'database "site" does not exist' },
      "database does not exist (3D000)",
    ],
    [
      "a role refused",
      { code: "28000", message: 'role "e" does not exist' },
      "the role may not log in here (pg_hba.conf, or no such role) (28000)",
    ],
    [
      "an unknown code of a known class",
      { code: "53999", message: "e e e" },
      "the database lacks resources (53999)",
    ],
    ["an unknown class", { code: "P0001", message: "raised: e" }, "PostgreSQL refused it (P0001)"],
    [
      "a refused connection",
      { code: "ECONNREFUSED", message: "connect ECONNREFUSED 127.0.0.1:5432" },
      "connection refused (ECONNREFUSED)",
    ],
    [
      "an unknown host",
      { code: "ENOTFOUND", message: "getaddrinfo ENOTFOUND db.e" },
      "host name not found (ENOTFOUND)",
    ],
    [
      "a closed socket (a five-letter errno)",
      { code: "EPIPE", message: "write EPIPE" },
      "connection reset (EPIPE)",
    ],
    [
      "an untrusted certificate",
      { code: "SELF_SIGNED_CERT_IN_CHAIN", message: "self-signed certificate in certificate chain" },
      "the server's certificate is not trusted (SELF_SIGNED_CERT_IN_CHAIN)",
    ],
    [
      "pg's own connection timeout",
      { message: "Connection terminated due to connection timeout" },
      "no connection within the time limit",
    ],
    [
      "an error without a code",
      { message: "password e in the text" },
      "an error the site does not know (Error, no code)",
    ],
  ])("%s is told by its code and fixed words, never its message", (_, fields, said) => {
    const error = Object.assign(new Error(fields.message), "code" in fields ? { code: fields.code } : {});
    expect(describeDatabaseError(error)).toBe(said);
  });

  test("a misread password is refused in one line, without connecting where the parser would have", async () => {
    // What a URL parser takes for the host and port is a listener here: a connection would show.
    const startups: string[] = [];
    const listener = createServer((socket) => {
      socket.once("data", (startup) => {
        startups.push(startup.toString("latin1"));
        socket.destroy();
      });
    });
    await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
    const { port } = listener.address() as AddressInfo;
    const { database, lines } = startDatabase(`postgres://127.0.0.1:${port}#SecretPw@db:5432/site`, 1);
    // A well-formed URL to the same listener, started after: once it has connected, a connection
    // started before it would have too.
    const { database: control } = startDatabase(`postgres://control@127.0.0.1:${port}/control`, 1);
    await expect.poll(() => startups.some((startup) => startup.includes("control"))).toBe(true);
    expect(startups).toHaveLength(1);
    expect(database.state()).toMatchObject({ status: "unreachable" });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^config: DATABASE_URL has a #, \/ or \? .*percent-encode the password/);
    expect(lines.join("\n")).not.toContain("SecretPw");
    await Promise.all([database.stop(), control.stop()]);
    listener.close();
  });
});

describe("the database", () => {
  test("replicas starting together migrate once, one at a time", async () => {
    const url = await postgres.createDatabase();
    const lines: string[] = [];
    const replicas = [1, 2, 3].map(() =>
      createDatabase({ url, poolSize: 2, migrations: MIGRATIONS, log: (line) => lines.push(line) }),
    );
    for (const replica of replicas) replica.start();
    await Promise.all(replicas.map((replica) => replica.ready()));
    const applied = await postgres.sql<{ version: number }>(
      "SELECT version FROM schema_migrations ORDER BY version",
      [],
      new URL(url).pathname.slice(1),
    );
    expect(applied.map((row) => row.version)).toEqual([1, 2]);
    expect(lines.filter((line) => line.includes("applied migrations"))).toEqual([
      "database: applied migrations 1, 2",
    ]);
    await replicas[0]?.query("INSERT INTO things (id, name) VALUES (1, 'one')");
    expect((await replicas[1]?.query("SELECT name FROM things"))?.rows).toEqual([{ name: "one" }]);
    await Promise.all(replicas.map((replica) => replica.stop()));
  });

  test("a replica waits for another's migration however long it takes, past the pool's time limits", async () => {
    const url = await postgres.createDatabase();
    const name = new URL(url).pathname.slice(1);
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    // Another replica migrating: it holds the migration lock.
    await holder.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
    const { database: replica, lines } = startDatabase(url, 1);
    // Waiting longer than the pool's lock (2 s), statement (5 s) and query (6 s) limits.
    await expect
      .poll(
        async () =>
          (
            await postgres.sql<{ waiting: boolean }>(
              `SELECT bool_or(now() - query_start > interval '7 seconds') AS waiting FROM pg_stat_activity
               WHERE application_name = 'agency-site' AND wait_event_type = 'Lock' AND wait_event = 'advisory'`,
              [],
              name,
            )
          )[0]?.waiting,
        { timeout: 20_000 },
      )
      .toBe(true);
    expect(replica.state().status).toBe("connecting");
    await holder.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]);
    await replica.ready();
    expect(lines).toEqual(["database: applied migrations 1, 2"]);
    await holder.end();
    await replica.stop();
  }, 30_000);

  test("a pool whose connections are all busy is said as such, never as an outage", async () => {
    const url = await postgres.createDatabase();
    const { database, lines } = startDatabase(url, 1);
    await database.ready();
    // The one connection held, however long the pool's 3 s wait for a connection takes.
    const held = gate();
    const holding = database.transaction(() => held.promise);
    await expect(database.query("SELECT 1")).rejects.toThrow("all 1 connections busy");
    expect(database.state().status).toBe("ok");
    held.open();
    await holding;
    expect((await database.query("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
    expect(lines.filter((line) => !line.includes("applied migrations"))).toEqual([
      "database: all DATABASE_POOL_SIZE=1 connections were busy for 3 s; enquiries meanwhile wait in the server's spool (ENQUIRY_STORE_DIR/spool): raise DATABASE_POOL_SIZE (replicas × pool size under the database's max_connections) or add replicas",
    ]);
    await database.stop();
  }, 20_000);

  test("a connection ended between a transaction's queries fails that transaction, never the process", async () => {
    const url = await postgres.createDatabase();
    const { database } = startDatabase(url, 2);
    await database.ready();
    const between = gate();
    const ended = gate();
    let pid = 0;
    const transaction = database.transaction(async (client) => {
      pid = (await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]?.pid ?? 0;
      between.open();
      // Idle in the transaction while the server ends the connection: pg tells it as an event.
      await ended.promise;
      await client.query("SELECT 1");
    });
    await between.promise;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query("SELECT pg_terminate_backend($1)", [pid]);
    await admin.end();
    // The event has come once the connection's socket is closed; unheard, it would have thrown.
    await expect
      .poll(
        async () =>
          (await database.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE pid = $1", [pid]))
            .rows[0]?.n,
      )
      .toBe(0);
    ended.open();
    await expect(transaction).rejects.toThrow();
    expect((await database.query("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
    await database.stop();
  }, 30_000);

  test("a wrong password is said once, without the password, and queries fail at once", async () => {
    const url = postgres.url().replace(encodeURIComponent(TEST_DATABASE_PASSWORD), "wrong-pass-9c1e");
    const { database, lines } = startDatabase(url, 1);
    await expect.poll(() => database.state().status).toBe("unreachable");
    await expect(database.query("SELECT 1")).rejects.toBeInstanceOf(DatabaseUnavailableError);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^database: cannot connect to DATABASE_URL \(host 127\.0\.0\.1, port \d+, database postgres\): password authentication failed/,
    );
    expect(lines.join("\n")).not.toContain("wrong-pass-9c1e");
    await database.stop();
  });

  test("a one-letter password that is wrong: the line names the code and fixed words, with no letter masked", async () => {
    // Masking the password `e` in the server's text read `password auth***ntication fail***d`.
    const role = `site_e_${Date.now()}`;
    await postgres.sql(`CREATE ROLE ${role} LOGIN PASSWORD 'right-one'`);
    const url = `postgres://${role}:e@127.0.0.1:${postgres.port}/postgres`;
    const { database, lines } = startDatabase(url, 1);
    await expect.poll(() => database.state().status).toBe("unreachable");
    expect(database.state()).toEqual({
      status: "unreachable",
      cause: "password authentication failed (28P01)",
    });
    await expect(database.query("SELECT 1")).rejects.toThrow(
      "the database is unreachable (password authentication failed (28P01))",
    );
    expect(lines).toEqual([
      `database: cannot connect to DATABASE_URL (host 127.0.0.1, port ${postgres.port}, database postgres): password authentication failed (28P01); pages are served, enquiries wait in the server's spool (ENQUIRY_STORE_DIR/spool), and connecting is retried`,
    ]);
    await database.stop();
  });

  test("a missing database is said by its code, never the server's text naming it", async () => {
    const { database, lines } = startDatabase(postgres.url("no_such_e"), 1);
    await expect.poll(() => database.state().status).toBe("unreachable");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/: database does not exist \(3D000\); pages are served/);
    await database.stop();
  });

  test("an outage is said once when it starts and once when it ends", async () => {
    const url = await postgres.createDatabase();
    const { database, lines } = startDatabase(url, 2);
    await database.ready();
    await postgres.stop();
    await expect(database.query("SELECT 1")).rejects.toBeInstanceOf(DatabaseUnavailableError);
    await expect(database.query("SELECT 1")).rejects.toBeInstanceOf(DatabaseUnavailableError);
    expect(database.state().status).toBe("unreachable");
    await postgres.start();
    await expect.poll(() => database.state().status, { timeout: 15_000 }).toBe("ok");
    expect((await database.query("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
    expect(lines.filter((line) => line.includes("unreachable"))).toHaveLength(1);
    expect(lines.filter((line) => line.includes("reachable again"))).toHaveLength(1);
    expect(lines.join("\n")).not.toContain(TEST_DATABASE_PASSWORD);
    await database.stop();
  }, 30_000);
});
