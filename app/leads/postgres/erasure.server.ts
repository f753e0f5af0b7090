/** The PostgreSQL store's erasures: a lead's row deleted and its id recorded in one transaction. */
import type { PoolClient } from "pg";
import { LEAD_ID_LOCKS } from "~/db/advisory-locks.server";
import type { Database } from "~/db/database.server";

/** Takes the lock of one lead id for the rest of the transaction. */
export const lockLeadId = (client: PoolClient, id: string) =>
  client.query("SELECT pg_advisory_xact_lock($1, hashtext($2))", [LEAD_ID_LOCKS, id]);

/** Records the erasure of lead `id` and deletes its row in one transaction: no replica writes it back. */
export async function eraseLeadRow(database: Database, id: string, at: Date): Promise<void> {
  await database.transaction(async (client) => {
    await lockLeadId(client, id);
    await client.query("INSERT INTO erasures (id, erased_at) VALUES ($1, $2) ON CONFLICT DO NOTHING", [
      id,
      at.toISOString(),
    ]);
    await client.query("DELETE FROM leads WHERE id = $1", [id]);
  });
}

/** Whether lead `id` was erased, by any replica. */
export async function isErasedRow(database: Database, id: string): Promise<boolean> {
  const { rows } = await database.query("SELECT 1 FROM erasures WHERE id = $1", [id]);
  return rows.length > 0;
}
