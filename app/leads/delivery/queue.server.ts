/** Delivery's queue: picks the due leads and sends them one at a time, recording each outcome. */
import type { LeadStore } from "~/leads/contract.server";
import type { OutcomeWriter } from "~/leads/delivery/outcomes.server";
import { type Lead, logLeadState } from "~/leads/lead";
import { afterAttempt } from "~/leads/retry-policy";
import type { SendResult } from "~/mail/types";

/**
 * Sends one lead to the agency and says how it went; never throws (a failure is `{ ok: false }`,
 * already logged). server/services.ts makes it from the mail transport.
 */
export type SendLead = (lead: Lead) => Promise<SendResult>;

/** Which pending lead the deliverer sends next, and the send of one lead with its outcome. */
export interface DeliveryQueue {
  /** A lead as this process knows it: an outcome not yet written wins over the store. */
  current(lead: Lead): Lead;
  /** When `lead` is due (ms): at once for the leads found pending when this process took over. */
  dueAt(lead: Lead): number;
  /** The pending lead due soonest that EmailJS has not accepted in this process's life. */
  next(): Lead | undefined;
  /** Every lead pending now is tried at once (this process just became the deliverer). */
  hurryPending(): void;
  /** `lead` is not this process's to send now (erased, or another deliverer's). */
  drop(lead: Lead): void;
  /** Sends a claimed lead with `send` and writes its outcome. */
  send(lead: Lead, send: SendLead): Promise<void>;
  /** When the last send started (ms), 0 before any. */
  lastSendAt(): number;
}

export function createDeliveryQueue(options: {
  store: LeadStore;
  outcomes: OutcomeWriter;
  now: () => Date;
  random?: () => number;
}): DeliveryQueue {
  const { store, outcomes, now, random } = options;
  // Leads found pending when this process became the deliverer are tried at once.
  const immediate = new Set<string>();
  /** Leads EmailJS accepted in this process's life: never sent again, written or not. */
  const accepted = new Set<string>();
  let lastSendAt = 0;

  const current = (lead: Lead) => outcomes.unwrittenOutcomes().get(lead.id) ?? lead;
  const dueAt = (lead: Lead) => (immediate.has(lead.id) ? 0 : Date.parse(lead.nextAttemptAt));

  return {
    current,
    dueAt,
    next() {
      let chosen: Lead | undefined;
      for (const stored of store.leads()) {
        const lead = current(stored);
        if (lead.state !== "pending" || accepted.has(lead.id)) continue;
        if (chosen === undefined || dueAt(lead) < dueAt(chosen)) chosen = lead;
      }
      return chosen;
    },
    hurryPending() {
      for (const lead of store.leads()) if (lead.state === "pending") immediate.add(lead.id);
    },
    drop: (lead) => void immediate.delete(lead.id),
    async send(lead, send) {
      lastSendAt = now().getTime();
      const result = await send(lead);
      immediate.delete(lead.id);
      const updated = afterAttempt(lead, result, now(), random);
      if (updated.state === "sent") accepted.add(lead.id);
      if (updated.state !== lead.state) logLeadState(updated);
      await outcomes.write(updated);
    },
    lastSendAt: () => lastSendAt,
  };
}
