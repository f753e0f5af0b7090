/** The lead store's health report, as `/healthz` and `npm run leads -- --health` show it. */
import type { LeadCounts, WriteOutcome } from "~/leads/contract.server";

/** What the lead store looks like from outside: the details of `/healthz` and `npm run leads -- --health`. */
export interface LeadsHealth {
  /** From the last write (or write probe): `unusable` until a write succeeds again. */
  store: "ok" | "unusable" | "full";
  /**
   * `spam`: quarantined leads waiting for an operator (`npm run leads -- --spam`); `spooled`: leads
   * waiting in this server's spool for the database to take them (always 0 without DATABASE_URL).
   */
  leads: { pending: number; failed: number; oldestPendingSeconds: number; spam: number; spooled: number };
}

/** What the server's `/healthz` adds: what only a running process knows. */
export interface ServerLeadsHealth extends LeadsHealth {
  /**
   * Delivery outcomes (an accepted send, a failed attempt) the store has not taken yet, kept in
   * this process's memory and written again with backoff: above 0 while the disk or the database
   * refuses writes.
   */
  unwrittenOutcomes: number;
}

export function describeLeads(options: {
  counts: LeadCounts;
  lastWrite: WriteOutcome | null;
  maxLeads: number;
  /** Leads waiting in the spool of the data folder. */
  spooled: number;
  now?: number;
}): LeadsHealth {
  const { counts, lastWrite, maxLeads, spooled, now = Date.now() } = options;
  const undelivered = counts.pending + counts.inbox + counts.failed;
  const store = lastWrite?.ok === false ? "unusable" : undelivered >= maxLeads ? "full" : "ok";
  const oldestPendingSeconds = Math.round((now - (counts.oldestPendingAt ?? now)) / 1000);
  const { pending, failed, spam } = counts;
  return { store, leads: { pending, failed, oldestPendingSeconds, spam, spooled } };
}
