/**
 * Applies the schema's migrations the database has not seen, one replica at a time, and reports
 * edited ones.
 */
import type { ClientBase } from "pg";
import { MIGRATION_LOCK } from "~/db/advisory-locks.server";

/**
 * One versioned step of the schema, a file of app/db/migrations/. Rolling deploys run two
 * releases side by side, so a release only expands (new tables, new nullable columns, new
 * indexes); what the previous release still reads is dropped in a later release, never in the
 * one that stops using it.
 */
export interface Migration {
  version: number;
  /** The file's name, `0001-leads-and-erasures.sql`. */
  file: string;
  sql: string;
  /** The sha256 of the file's bytes, in hex. */
  checksum: string;
}

/** An applied migration whose file no longer has the checksum recorded when it was applied. */
export interface EditedMigration {
  file: string;
  recorded: string;
  current: string;
}

export interface MigrationOutcome {
  /** Versions applied now. */
  applied: number[];
  /** Versions applied by a release that recorded no checksum: their files' checksums are recorded now. */
  adopted: number[];
  edited: EditedMigration[];
}

/**
 * Applies the migrations the database has not seen yet, each in its own transaction, under a
 * session advisory lock so that replicas starting together migrate one after the other (the
 * lock is PostgreSQL's: a replica that dies while holding it loses it with its connection).
 * `client` is a connection of its own with no statement, lock or query time limit: a replica
 * waits for another's migration as long as it lasts, and a migration of a large table is never
 * cut short. The caller closes it.
 * Each applied migration's checksum is recorded; an applied migration whose file changed since
 * is never run again, only reported.
 */
export async function migrate(
  client: ClientBase,
  migrations: readonly Migration[],
): Promise<MigrationOutcome> {
  await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
  try {
    // The release before checksums made this table without `checksum` and reads it still
    // during a rolling deploy: the column is only ever added, nullable.
    await client.query(
      `CREATE TABLE IF NOT EXISTS schema_migrations (
         version integer PRIMARY KEY,
         name text NOT NULL,
         applied_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
    await client.query("ALTER TABLE schema_migrations ADD COLUMN IF NOT EXISTS checksum text");
    const { rows } = await client.query<{ version: number; checksum: string | null }>(
      "SELECT version, checksum FROM schema_migrations",
    );
    const recorded = new Map(rows.map((row) => [row.version, row.checksum]));
    const outcome: MigrationOutcome = { applied: [], adopted: [], edited: [] };
    for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
      const checksum = recorded.get(migration.version);
      if (checksum === undefined) {
        await apply(client, migration);
        outcome.applied.push(migration.version);
      } else if (checksum === null) {
        await client.query("UPDATE schema_migrations SET checksum = $2 WHERE version = $1", [
          migration.version,
          migration.checksum,
        ]);
        outcome.adopted.push(migration.version);
      } else if (checksum !== migration.checksum) {
        outcome.edited.push({ file: migration.file, recorded: checksum, current: migration.checksum });
      }
    }
    return outcome;
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]);
  }
}

async function apply(client: ClientBase, migration: Migration): Promise<void> {
  await client.query("BEGIN");
  try {
    await client.query(migration.sql);
    await client.query("INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)", [
      migration.version,
      migration.file,
      migration.checksum,
    ]);
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK");
    throw error;
  }
}

/** How many hex digits of a checksum a log line shows: enough to tell two apart. */
const SHOWN = 12;

/** The lines that say what a migration did: nothing when there was nothing to do. */
export function describeMigration(outcome: MigrationOutcome): string[] {
  const lines: string[] = [];
  if (outcome.applied.length > 0) lines.push(`database: applied migrations ${outcome.applied.join(", ")}`);
  if (outcome.adopted.length > 0) {
    lines.push(
      `database: recorded the checksums of migrations ${outcome.adopted.join(", ")}, applied by a release that kept none`,
    );
  }
  for (const { file, recorded, current } of outcome.edited) {
    lines.push(
      `database: migration ${file} was edited after it was applied (sha256 ${recorded.slice(0, SHOWN)}… recorded, ${current.slice(0, SHOWN)}… now) and is not run again; restore the file as released and put the change in a new migration`,
    );
  }
  return lines;
}
