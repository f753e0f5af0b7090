import type { ClientBase } from "pg";
import { MIGRATION_LOCK } from "~/db/advisory-locks.server";

/**
 * One versioned step of the schema. Rolling deploys run two releases side by side, so a
 * release only expands (new tables, new nullable columns, new indexes); what the previous
 * release still reads is dropped in a later release, never in the one that stops using it.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/**
 * Applies the migrations the database has not seen yet, each in its own transaction, under a
 * session advisory lock so that replicas starting together migrate one after the other (the
 * lock is PostgreSQL's: a replica that dies while holding it loses it with its connection).
 * `client` is a connection of its own with no statement, lock or query time limit: a replica
 * waits for another's migration as long as it lasts, and a migration of a large table is never
 * cut short. The caller closes it. Returns the versions applied.
 */
export async function migrate(client: ClientBase, migrations: readonly Migration[]): Promise<number[]> {
  await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
  try {
    await client.query(
      `CREATE TABLE IF NOT EXISTS schema_migrations (
         version integer PRIMARY KEY,
         name text NOT NULL,
         applied_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
    const { rows } = await client.query<{ version: number }>("SELECT version FROM schema_migrations");
    const applied = new Set(rows.map((row) => row.version));
    const done: number[] = [];
    for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
      if (applied.has(migration.version)) continue;
      await client.query("BEGIN");
      try {
        await client.query(migration.sql);
        await client.query("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", [
          migration.version,
          migration.name,
        ]);
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK");
        throw error;
      }
      done.push(migration.version);
    }
    return done;
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]);
  }
}
