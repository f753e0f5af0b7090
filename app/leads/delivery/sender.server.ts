/** Delivery's send: one claimed lead to the agency, and its outcome on its way into the store. */
import type { OutcomeWriter } from "~/leads/delivery/outcomes.server";
import { type Lead, logLeadState } from "~/leads/lead";
import { afterAttempt } from "~/leads/retry-policy";
import type { SendResult } from "~/mail/types";

/**
 * Sends one lead to the agency and says how it went; never throws (a failure is `{ ok: false }`,
 * already logged). server/services.ts makes it from the mail transport.
 */
export type SendLead = (lead: Lead) => Promise<SendResult>;

/** Sends claimed leads one at a time, and remembers when the last send started (for the pace). */
export function createLeadSender(options: {
  outcomes: OutcomeWriter;
  now: () => Date;
  random?: () => number;
}) {
  const { outcomes, now, random } = options;
  let lastSendAt = 0;
  return {
    /** Sends a claimed lead with `send`, writes its outcome and returns it. */
    async send(lead: Lead, send: SendLead): Promise<Lead> {
      lastSendAt = now().getTime();
      const result = await send(lead);
      const updated = afterAttempt(lead, result, now(), random);
      if (updated.state !== lead.state) logLeadState(updated);
      await outcomes.write(updated);
      return updated;
    },
    /** When the last send started (ms), 0 before any. */
    lastSendAt: () => lastSendAt,
  };
}
