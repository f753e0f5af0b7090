import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { migrate } from "~/db/migrate.server";
import { readMigrations } from "~/db/migrations.server";
import { archivedMigrations, releaseArchives } from "../../scripts/lib/release-archive";
import { startPostgres, type TestPostgres } from "../support/postgres";
import {
  PREVIOUS_RELEASE,
  type PreviousStatement,
  previousMigrations,
  previousStatements,
} from "../support/previous-release";

// "A release only adds to the schema", checked against the committed fixture of the previous
// release (tests/fixtures/previous-release, refreshed at each release): during a rolling deploy
// that release keeps running beside this one, on the schema this release migrates to.

let postgres: TestPostgres;
beforeAll(async () => {
  postgres = await startPostgres("pg-unit-previous");
}, 60_000);
afterAll(async () => {
  await postgres?.dispose();
});

/** A new database, a connection to it, and `work` done on that connection. */
async function onNewDatabase<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: await postgres.createDatabase() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Runs each statement in order; the ones that fail, with the error. */
async function failures(client: pg.Client, statements: PreviousStatement[]): Promise<string[]> {
  const failed: string[] = [];
  for (const { source, sql } of statements) {
    await client.query(sql).catch((error: Error) => {
      failed.push(`${source}: ${error.message}\n${sql}`);
      return client.query("ROLLBACK");
    });
  }
  return failed;
}

interface Column {
  table_name: string;
  column_name: string;
  type: string;
  is_nullable: "YES" | "NO";
  has_default: boolean;
}

const columns = async (client: pg.Client) =>
  (
    await client.query<Column>(
      `SELECT table_name, column_name, format_type(atttypid, atttypmod) AS type, is_nullable,
              (column_default IS NOT NULL OR is_identity = 'YES') AS has_default
         FROM information_schema.columns
         JOIN pg_attribute ON attrelid = (quote_ident(table_name))::regclass AND attname = column_name
        WHERE table_schema = 'public' ORDER BY table_name, ordinal_position`,
    )
  ).rows;

const MIGRATIONS = readMigrations();
const previous = previousMigrations();
const statements = previousStatements();

describe("the previous release's fixture", () => {
  test("holds migrations and statements", () => {
    expect(previous.length).toBeGreaterThan(0);
    expect(statements.length).toBeGreaterThan(20);
  });

  test("is the newest packed release: every migration its archive ships, byte for byte (else run npm run release)", () => {
    const [newest] = releaseArchives(resolve("tests/fixtures/releases"));
    if (!newest) throw new Error("no release is packed in tests/fixtures/releases: run npm run release");
    const shipped = [...archivedMigrations(newest.path)].map(([file, bytes]) => ({ file, bytes }));
    expect(shipped.length, `${newest.commit} ships no SQL migration`).toBeGreaterThan(0);
    const fixture = (file: string) => {
      const path = resolve(PREVIOUS_RELEASE, "migrations", file);
      return existsSync(path) ? readFileSync(path) : null;
    };
    const differing = shipped
      .filter(({ file, bytes }) => !fixture(file)?.equals(bytes))
      .map(({ file }) => `${file} of release ${newest.commit}`);
    expect(differing, "missing or different in tests/fixtures/previous-release/migrations").toEqual([]);
  });

  test("names only files that exist as where its statements come from", () => {
    const named = new Set(
      statements.flatMap(({ source }) => source.match(/\b(?:app|server)\/[\w./-]+\.tsx?\b/g) ?? []),
    );
    expect(named.size).toBeGreaterThan(5);
    expect([...named].filter((file) => !existsSync(file))).toEqual([]);
  });

  test("this release ships the previous release's migrations unchanged, and only adds after them", () => {
    expect(MIGRATIONS.slice(0, previous.length)).toEqual(previous);
  });
});

describe("beside this release's schema", () => {
  test("a database the previous release migrated takes this release's migrations, and the previous release's statements run on it", async () => {
    await onNewDatabase(async (client) => {
      await migrate(client, previous);
      const { applied, edited } = await migrate(client, MIGRATIONS);
      expect(edited).toEqual([]);
      expect(applied).toEqual(MIGRATIONS.slice(previous.length).map((migration) => migration.version));
      expect(await failures(client, statements)).toEqual([]);
    });
  });

  test("the previous release's statements run on a database this release migrated from empty", async () => {
    await onNewDatabase(async (client) => {
      await migrate(client, MIGRATIONS);
      expect(await failures(client, statements)).toEqual([]);
    });
  });

  test("every column of the previous release stays, with its type and nullability; each new column of its tables is nullable or has a default", async () => {
    const before = await onNewDatabase(async (client) => {
      await migrate(client, previous);
      return columns(client);
    });
    const after = await onNewDatabase(async (client) => {
      await migrate(client, MIGRATIONS);
      return columns(client);
    });
    const named = (column: Column) => `${column.table_name}.${column.column_name}`;
    const now = new Map(after.map((column) => [named(column), column]));
    const lost = before.flatMap((column) => {
      const kept = now.get(named(column));
      if (!kept) return [`${named(column)} is gone`];
      if (kept.type !== column.type) return [`${named(column)} is ${kept.type}, was ${column.type}`];
      if (kept.is_nullable === "NO" && column.is_nullable === "YES")
        return [`${named(column)} became NOT NULL`];
      return [];
    });
    expect(lost).toEqual([]);
    const tables = new Set(before.map((column) => column.table_name));
    const was = new Set(before.map(named));
    const unwritable = after.filter(
      (column) =>
        tables.has(column.table_name) &&
        !was.has(named(column)) &&
        column.is_nullable === "NO" &&
        !column.has_default,
    );
    expect(unwritable.map(named)).toEqual([]);
  });
});
