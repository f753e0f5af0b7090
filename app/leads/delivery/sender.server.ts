/** Delivery's send: one claimed lead to one destination, and its outcome on its way into the store. */

import type { DeliveryResult, GaveUp as GaveUpNotice } from "~/destinations/destination";
import type { DestinationName } from "~/destinations/lookup.server";
import type { OutcomeWriter } from "~/leads/delivery/outcomes.server";
import { type Lead, logDeliveryState, logLeadState, withDelivery } from "~/leads/lead";
import { afterAttempt } from "~/leads/retry-policy";

/**
 * Sends one lead to one destination and says how it went; never throws (a failure is
 * `{ ok: false }`). server/lead-destinations.ts makes one per configured destination.
 */
export type DestinationSender = (lead: Lead) => Promise<DeliveryResult>;

/** A destination gave up on a lead (its record turned `failed` by an attempt): for alerts and `lead.failed`. */
export interface GaveUp extends GaveUpNotice {
  destination: DestinationName;
}

/**
 * Says a lead's new state once an outcome is written: as the store holds it now (another
 * destination's outcome may have landed meanwhile), or as this process holds it while the write
 * waits (`stored` undefined); nothing for an erased lead (null).
 */
export function logLeadChange(claimed: Lead, stored: Lead | null | undefined, outcome: Lead): void {
  if (stored === null) return;
  const now = stored ?? outcome;
  if (now.state !== claimed.state) logLeadState(now);
}

/** Sends claimed leads to one destination one at a time, and remembers when the last send started (for its pace). */
export function createLeadSender(options: {
  destination: DestinationName;
  send: DestinationSender;
  outcomes: OutcomeWriter;
  now: () => Date;
  random?: () => number;
  onGaveUp?: (gaveUp: GaveUp) => void;
  log: (line: string) => void;
}) {
  const { destination, send, outcomes, now, random, onGaveUp, log } = options;
  let lastSendAt = 0;
  return {
    /** Sends a claimed lead and writes its outcome. */
    async send(lead: Lead) {
      const record = lead.destinations[destination];
      if (!record) return;
      lastSendAt = now().getTime();
      const result = await send(lead);
      const updated = afterAttempt(record, result, now(), random);
      const outcome = withDelivery(lead, destination, updated);
      if (updated.state !== record.state) logDeliveryState(lead, destination, updated);
      if (updated.state === "failed" && !result.ok) {
        // The status as the answer gave it; the cause as the lead's record keeps it.
        const { status } = result.error;
        try {
          onGaveUp?.({
            leadId: lead.id,
            destination,
            attempts: updated.attempts,
            error: {
              ...(status === undefined ? {} : { status }),
              cause: updated.lastError ?? result.error.cause,
            },
          });
        } catch (error) {
          log(
            `delivery: the give-up hook failed (${error instanceof Error ? error.message : String(error)})`,
          );
        }
      }
      logLeadChange(lead, await outcomes.write({ lead: outcome, destination, record: updated }), outcome);
    },
    /** When the last send started (ms), 0 before any. */
    lastSendAt: () => lastSendAt,
  };
}
