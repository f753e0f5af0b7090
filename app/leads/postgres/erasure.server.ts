/** The PostgreSQL store's erasures: a lead's row deleted and its id recorded in one transaction. */
import type { PoolClient } from "pg";
import { LEAD_ID_LOCKS } from "~/db/advisory-locks.server";
import type { Database } from "~/db/database.server";
import { DESTINATIONS, type DestinationName } from "~/destinations/lookup.server";

/** Takes the lock of one lead id for the rest of the transaction. */
export const lockLeadId = (client: PoolClient, id: string) =>
  client.query("SELECT pg_advisory_xact_lock($1, hashtext($2))", [LEAD_ID_LOCKS, id]);

/**
 * Records the erasure of lead `id` and deletes its row in one transaction: no replica writes it
 * back. Returns the destinations whose delivery of it began, in the order of DESTINATIONS: an
 * attempt counted, or a claim still on the row (`lease_until`, committed before each send and
 * cleared only by the write of its outcome), so a send still waiting for its answer, or one whose
 * deliverer died, counts too. The rows are read under their locks: a claim committed before is
 * seen, and one after finds no row. Why: docs/decisions/031-erasure-tells-every-destination.md.
 */
export async function eraseLeadRow(database: Database, id: string, at: Date): Promise<DestinationName[]> {
  return database.transaction((client) => eraseLeadIn(client, id, at));
}

/** eraseLeadRow's work, inside a transaction of the caller's (a withdrawal erases and records in one). */
export async function eraseLeadIn(client: PoolClient, id: string, at: Date): Promise<DestinationName[]> {
  await lockLeadId(client, id);
  const begun = new Set<string>();
  const own = await client.query<{ begun: boolean }>(
    "SELECT attempts > 0 OR lease_until IS NOT NULL AS begun FROM leads WHERE id = $1 FOR UPDATE",
    [id],
  );
  if (own.rows[0]?.begun) begun.add("emailjs");
  const others = await client.query<{ destination: string; begun: boolean }>(
    `SELECT destination, attempts > 0 OR lease_until IS NOT NULL AS begun
     FROM lead_deliveries WHERE lead_id = $1 FOR UPDATE`,
    [id],
  );
  for (const row of others.rows) if (row.begun && row.destination !== "emailjs") begun.add(row.destination);
  await client.query("INSERT INTO erasures (id, erased_at) VALUES ($1, $2) ON CONFLICT DO NOTHING", [
    id,
    at.toISOString(),
  ]);
  await client.query("DELETE FROM leads WHERE id = $1", [id]);
  return DESTINATIONS.filter((name) => begun.has(name));
}

/** Whether lead `id` was erased, by any replica. */
export async function isErasedRow(database: Database, id: string): Promise<boolean> {
  const { rows } = await database.query("SELECT 1 FROM erasures WHERE id = $1", [id]);
  return rows.length > 0;
}
