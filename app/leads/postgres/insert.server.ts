/** A new lead's insert into PostgreSQL, once by its id: the enquiry's, a spooled lead's and a folder import's. */
import type { PoolClient } from "pg";
import type { Lead } from "~/leads/lead";
import { UNDELIVERED_STATES } from "~/leads/lead";
import { lockLeadId } from "~/leads/postgres/erasure.server";
import {
  LEAD_COLUMNS,
  LEAD_STATE_SQL,
  LEAD_VALUES,
  leadValues,
  writeOtherDeliveries,
} from "~/leads/postgres/rows.server";

/** Whether lead `l` has not reached the agency (counts toward the cap). */
export const UNDELIVERED_SQL = `(${LEAD_STATE_SQL}) IN (${UNDELIVERED_STATES.map((state) => `'${state}'`).join(", ")})`;

/**
 * What became of an insert: `inserted`; `held` when the database already holds the lead's id (an
 * insert that came late, a spooled lead drained twice, the same enquiry posted to two replicas:
 * never a second lead); `erased` when it recorded the id's erasure (never a lead brought back);
 * `full` when `cap` leads are undelivered.
 */
export type InsertOutcome = "inserted" | "held" | "erased" | "full";

/**
 * Inserts `lead` and its other destinations' records in the caller's transaction, once: under
 * its id's lock, as an erasure takes it, so an erase and an insert of one id never interleave.
 * With `cap`, only while fewer than `cap` leads are undelivered.
 */
export async function insertLeadOnce(client: PoolClient, lead: Lead, cap?: number): Promise<InsertOutcome> {
  await lockLeadId(client, lead.id);
  const capped =
    cap === undefined ? "" : `AND (SELECT count(*) FROM leads l WHERE ${UNDELIVERED_SQL}) < ${Number(cap)}`;
  const { rowCount } = await client.query(
    `INSERT INTO leads (${LEAD_COLUMNS}) SELECT ${LEAD_VALUES}
     WHERE NOT EXISTS (SELECT 1 FROM erasures WHERE id = $1) ${capped}
     ON CONFLICT (id) DO NOTHING`,
    leadValues(lead),
  );
  if (rowCount) {
    await writeOtherDeliveries(client, lead);
    return "inserted";
  }
  const { rows } = await client.query<{ erased: boolean }>(
    "SELECT false AS erased FROM leads WHERE id = $1 UNION ALL SELECT true FROM erasures WHERE id = $1",
    [lead.id],
  );
  if (rows.some((row) => row.erased)) return "erased";
  return rows.length > 0 || cap === undefined ? "held" : "full";
}

/**
 * Whether an error of the database is about one lead alone (SQLSTATE class 22, data exception, or
 * 23, integrity constraint), so the drain goes on with the others; any other error (unreachable,
 * a lock timeout) stops the round.
 */
export function isLeadOwnError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && /^(22|23)/.test(code);
}
