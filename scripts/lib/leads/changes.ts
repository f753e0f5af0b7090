/** `npm run leads -- retry` and `release`: what they put back in the delivery queue, as the operator reads it. */
import type { DestinationName } from "~/destinations/lookup.server";
import type { LeadStore } from "~/leads/contract.server";
import { releaseLead, retryFailed, retryLead } from "~/leads/operations/changes.server";
import { logLine, plural } from "./output";

/**
 * Puts back in the queue what failed: of one lead (`ID`) or of every lead (`--failed`), each failed
 * destination, or only `to`; each with a fresh 72 h of retries (app/leads/operations/changes.server.ts).
 */
export async function retry(store: LeadStore, which: string, to: DestinationName | undefined) {
  const now = new Date();
  const { count, destinations } =
    which === "--failed" ? await retryFailed(store, to, now) : await retryLead(store, which, to, now);
  const them = count === 1 ? "it" : "them";
  console.log(
    `${plural(count, "lead")} back in the queue${destinations.length > 0 ? ` (${destinations.join(", ")})` : ""}: the running server delivers ${them} within a few seconds (one without any destination files ${them} in its inbox).`,
  );
}

export async function release(store: LeadStore, id: string) {
  const { lead, released } = await releaseLead(store, id, new Date());
  logLine({
    event: "lead",
    id,
    state: released.state,
    attempts: 0,
    released: released.releasedAt,
    reason: lead.reason,
  });
  console.log(
    `Released ${id} (${lead.reason}) into the delivery queue: the running server sends it within a few seconds to each destination it has (one without any files it in its inbox).`,
  );
}
