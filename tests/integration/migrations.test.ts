import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { createDatabase } from "~/db/database.server";
import { MIGRATIONS_DIR, readMigrations } from "~/db/migrations.server";
import { migrate as migrateAsBefore } from "../fixtures/typescript-migrations-release/migrate.server";
import { MIGRATIONS as MIGRATIONS_BEFORE } from "../fixtures/typescript-migrations-release/migrations.server";
import { migrationsFolder } from "../support/migrations-folder";
import { startPostgres, type TestPostgres } from "../support/postgres";

/** The versions of this release's migrations from `first` on, as the migration's log line lists them. */
const versionsFrom = (first: number) =>
  readMigrations()
    .map((migration) => migration.version)
    .filter((version) => version >= first)
    .join(", ");

// "Before" is the release whose migrations were TypeScript strings (tests/fixtures/
// typescript-migrations-release, its code as it was): the databases it migrated are the ones
// this release meets first, and during a rolling deploy its replicas run beside this one's.

vi.setConfig({ testTimeout: 30_000 });

let postgres: TestPostgres;
beforeAll(async () => {
  postgres = await startPostgres("pg-unit-migrations");
}, 60_000);
afterAll(async () => {
  await postgres?.dispose();
}, 60_000);

const nameOf = (url: string) => new URL(url).pathname.slice(1);
const sha256 = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");

/** A replica of this release on `url`, started, and the lines it logs. */
function startReplica(url: string, migrations = readMigrations()) {
  const lines: string[] = [];
  const database = createDatabase({ url, poolSize: 1, migrations, log: (line) => lines.push(line) });
  database.start();
  return { database, lines };
}

/** Migrates `url` as the release before did, on a connection of its own named `name`. */
async function migrateWithReleaseBefore(
  url: string,
  migrations = MIGRATIONS_BEFORE,
  name = "release-before",
) {
  const client = new pg.Client({ connectionString: url, application_name: name });
  await client.connect();
  try {
    return await migrateAsBefore(client, migrations);
  } finally {
    await client.end();
  }
}

/** The rows of schema_migrations; `checksum` null too where the release before left out the column. */
async function recorded(url: string) {
  return postgres.sql<{ version: number; name: string; checksum: string | null; applied_at: Date }>(
    "SELECT version, name, to_jsonb(m) ->> 'checksum' AS checksum, applied_at FROM schema_migrations m ORDER BY version",
    [],
    nameOf(url),
  );
}

/** Every table's columns, every index and every constraint of the database: its schema, as text. */
async function schemaOf(url: string): Promise<string> {
  const database = nameOf(url);
  const parts = await Promise.all(
    [
      `SELECT table_name, column_name, data_type, character_maximum_length, is_nullable, column_default, is_identity
       FROM information_schema.columns WHERE table_schema = 'public' ORDER BY 1, 2`,
      "SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1, 2",
      `SELECT conrelid::regclass::text AS on, conname, pg_get_constraintdef(oid) AS definition
       FROM pg_constraint WHERE connamespace = 'public'::regnamespace ORDER BY 1, 2`,
    ].map((text) => postgres.sql(text, [], database)),
  );
  return JSON.stringify(parts, null, 1);
}

/** The statements of a SQL text: its `--` comments left out, its whitespace made single spaces. */
const statementsOf = (sql: string) =>
  sql
    .replace(/--[^\n]*/g, "")
    .split(";")
    .map((statement) => statement.replace(/\s+/g, " ").trim())
    .filter(Boolean);

describe("the migration files", () => {
  test("are app/db/migrations' files in order, each with the sha256 of its bytes", () => {
    const migrations = readMigrations();
    expect(migrations.map(({ version, file }) => [version, file])).toEqual([
      [1, "0001-leads-and-erasures.sql"],
      [2, "0002-notice-claims-limits-submissions-vitals.sql"],
      [3, "0003-leads-privacy-notice.sql"],
      [4, "0004-lead-destinations.sql"],
      [5, "0005-privacy-notice-renderings.sql"],
      [6, "0006-vitals-campaign.sql"],
      [7, "0007-withdrawals.sql"],
      [8, "0008-campaign-counts.sql"],
    ]);
    for (const migration of migrations) {
      expect(migration.checksum).toBe(sha256(join(MIGRATIONS_DIR, migration.file)));
    }
  });

  test("hold the very statements the release before applied", () => {
    const files = readMigrations();
    expect(MIGRATIONS_BEFORE.map((migration) => migration.version)).toEqual([1, 2]);
    for (const before of MIGRATIONS_BEFORE) {
      const file = files.find((migration) => migration.version === before.version);
      expect(statementsOf(file?.sql ?? "")).toEqual(statementsOf(before.sql));
    }
  });

  test("a file named otherwise, a version taken twice or no folder at all is refused in one line naming it", () => {
    const misnamed = migrationsFolder({ "0001-things.sql": "SELECT 1", "2-more_things.sql": "SELECT 2" });
    const twice = migrationsFolder({ "0001-things.sql": "SELECT 1", "0001-other-things.sql": "SELECT 2" });
    try {
      expect(() => readMigrations(misnamed.dir)).toThrow(
        `${join(misnamed.dir, "2-more_things.sql")} is not named like 0001-leads-and-erasures.sql`,
      );
      expect(() => readMigrations(twice.dir)).toThrow("0001-other-things.sql and 0001-things.sql in");
      expect(() => readMigrations(join(twice.dir, "absent"))).toThrow(
        /^cannot read the migrations folder .*absent \(ENOENT\); the build is incomplete: run npm run build/,
      );
    } finally {
      misnamed.remove();
      twice.remove();
    }
  });
});

describe("migrating", () => {
  test("records each migration's checksum as it applies it", async () => {
    const url = await postgres.createDatabase();
    const { database, lines } = startReplica(url);
    await database.ready();
    await database.stop();
    expect(lines).toEqual([`database: applied migrations ${versionsFrom(1)}`]);
    expect((await recorded(url)).map(({ version, name, checksum }) => ({ version, name, checksum }))).toEqual(
      readMigrations().map(({ version, file, checksum }) => ({ version, name: file, checksum })),
    );
  });

  test("an applied migration whose file was edited is said in one line naming it, is not run again, and the server goes on", async () => {
    const url = await postgres.createDatabase();
    const folder = migrationsFolder({ "0001-things.sql": "CREATE TABLE things (id integer PRIMARY KEY);\n" });
    try {
      const first = startReplica(url, readMigrations(folder.dir));
      await first.database.ready();
      await first.database.stop();
      const applied = sha256(join(folder.dir, "0001-things.sql"));

      // Run again, the edited file would fail: `things` exists. A new migration comes after it.
      folder.write("0001-things.sql", "CREATE TABLE things (id integer PRIMARY KEY, name text);\n");
      folder.write("0002-thing-sizes.sql", "ALTER TABLE things ADD COLUMN size integer;\n");
      const edited = sha256(join(folder.dir, "0001-things.sql"));
      const second = startReplica(url, readMigrations(folder.dir));
      await second.database.ready();
      expect(second.database.state()).toEqual({ status: "ok" });
      expect(second.lines).toEqual([
        "database: applied migrations 2",
        `database: migration 0001-things.sql was edited after it was applied (sha256 ${applied.slice(0, 12)}… recorded, ${edited.slice(0, 12)}… now) and is not run again; restore the file as released and put the change in a new migration`,
      ]);
      // The table as the released file made it, with the new migration's column; the checksum as applied.
      await second.database.query("INSERT INTO things (id, size) VALUES (1, 2)");
      await expect(second.database.query("SELECT name FROM things")).rejects.toThrow(
        /column "name" does not exist/,
      );
      expect((await recorded(url)).map((row) => row.checksum)).toEqual([
        applied,
        sha256(join(folder.dir, "0002-thing-sizes.sql")),
      ]);
      await second.database.stop();
    } finally {
      folder.remove();
    }
  });
});

describe("a database migrated by the release before", () => {
  test("is adopted: its migrations' checksums recorded, nothing applied again, the schema a new database gets", async () => {
    const url = await postgres.createDatabase();
    expect(await migrateWithReleaseBefore(url)).toEqual([1, 2]);
    const before = await recorded(url);
    expect(before.map((row) => row.checksum)).toEqual([null, null]);
    const salt = await postgres.sql("SELECT salt FROM site_salts", [], nameOf(url));

    const { database, lines } = startReplica(url);
    await database.ready();
    await database.stop();
    // The release before's migrations are adopted; this release's own (3 on) are applied.
    expect(lines).toEqual([
      `database: applied migrations ${versionsFrom(3)}`,
      "database: recorded the checksums of migrations 1, 2, applied by a release that kept none",
    ]);
    const after = await recorded(url);
    expect(after.slice(0, before.length)).toEqual(
      before.map((row, index) => ({ ...row, checksum: readMigrations()[index]?.checksum })),
    );
    expect(after.map((row) => row.checksum)).toEqual(readMigrations().map((migration) => migration.checksum));
    // Migration 2 makes the salt: applied again, there would be another (or a failure).
    expect(await postgres.sql("SELECT salt FROM site_salts", [], nameOf(url))).toEqual(salt);

    // Started again, there is nothing to say.
    const again = startReplica(url);
    await again.database.ready();
    await again.database.stop();
    expect(again.lines).toEqual([]);

    // A replica of the release before, restarting beside this one, finds nothing to do either.
    expect(await migrateWithReleaseBefore(url)).toEqual([]);
    expect(await recorded(url)).toEqual(after);

    const fresh = await postgres.createDatabase();
    const replica = startReplica(fresh);
    await replica.database.ready();
    await replica.database.stop();
    expect(await schemaOf(url)).toBe(await schemaOf(fresh));
  });

  test("rolling deploy: a replica of this release waits on the lock a replica of the release before holds while it migrates", async () => {
    const url = await postgres.createDatabase();
    // The release before's replica is held in the middle of its migration, the lock taken: its
    // table of versions is locked by a transaction of the test's, which it waits on.
    await migrateWithReleaseBefore(url, []);
    const blocker = new pg.Client({ connectionString: url });
    await blocker.connect();
    await blocker.query("BEGIN");
    await blocker.query("LOCK TABLE schema_migrations IN ACCESS EXCLUSIVE MODE");
    const migrating = migrateWithReleaseBefore(url);
    const waitOf = async (application: string) =>
      (
        await postgres.sql<{ wait: string }>(
          "SELECT wait_event AS wait FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'",
          [application],
          nameOf(url),
        )
      )[0]?.wait;
    await expect.poll(() => waitOf("release-before")).toBe("relation");

    // This release's replica waits for the same advisory lock, not on the locked table.
    const { database, lines } = startReplica(url);
    await expect.poll(() => waitOf("agency-site")).toBe("advisory");
    expect(database.state()).toEqual({ status: "connecting" });

    await blocker.query("COMMIT");
    await blocker.end();
    expect(await migrating).toEqual([1, 2]);
    await database.ready();
    await database.stop();
    expect(lines).toEqual([
      `database: applied migrations ${versionsFrom(3)}`,
      "database: recorded the checksums of migrations 1, 2, applied by a release that kept none",
    ]);
    expect((await recorded(url)).map((row) => row.checksum)).toEqual(
      readMigrations().map((migration) => migration.checksum),
    );
  });
});
