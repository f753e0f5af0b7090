import { type Lead, UNDELIVERED_STATES } from "~/leads/lead";
import type { WriteOutcome } from "~/leads/store.server";

/** What the lead store looks like from outside: the details of `/healthz` and `npm run leads -- --health`. */
export interface LeadsHealth {
  /** From the last write (or write probe): `unusable` until a write succeeds again. */
  store: "ok" | "unusable" | "full";
  /** `spam`: quarantined leads waiting for an operator (`npm run leads -- --spam`). */
  leads: { pending: number; failed: number; oldestPendingSeconds: number; spam: number };
}

export function describeLeads(options: {
  leads: readonly Lead[];
  lastWrite: WriteOutcome | null;
  maxLeads: number;
  now?: number;
}): LeadsHealth {
  const { leads, lastWrite, maxLeads, now = Date.now() } = options;
  let pending = 0;
  let failed = 0;
  let spam = 0;
  let undelivered = 0;
  let oldest = now;
  for (const lead of leads) {
    if (UNDELIVERED_STATES.includes(lead.state)) undelivered += 1;
    if (lead.state === "failed") failed += 1;
    if (lead.state === "spam") spam += 1;
    if (lead.state !== "pending") continue;
    pending += 1;
    oldest = Math.min(oldest, Date.parse(lead.receivedAt));
  }
  const store = lastWrite?.ok === false ? "unusable" : undelivered >= maxLeads ? "full" : "ok";
  const oldestPendingSeconds = Math.round((now - oldest) / 1000);
  return { store, leads: { pending, failed, oldestPendingSeconds, spam } };
}
