/**
 * Direct sends: a lead that neither the store nor its spool could keep goes straight to every
 * destination that takes a direct send, the visitor waiting; kept nowhere, so logged and counted.
 *
 * Why: docs/decisions/030-lead-spool.md.
 */
import { DESTINATIONS, type DestinationName } from "~/destinations/lookup.server";
import type { DestinationSender } from "~/leads/delivery/delivery.server";
import type { Lead } from "~/leads/lead";

/**
 * How a destination takes a lead sent directly: once, the visitor waiting, never retried. Those
 * that can (EmailJS, the webhook) have one (server/lead-destinations.ts).
 */
export type DirectSenders = Partial<Record<DestinationName, DestinationSender>>;

/** What a direct send came to: the destinations that took it, or none (`reachable`: some were tried). */
export type DirectOutcome =
  | { kind: "sent"; id: string; to: DestinationName[] }
  | { kind: "unkept"; reachable: boolean };

/**
 * Sends a lead to every destination of `direct` at once. Each lead sent is one log line by its id
 * (never its words), naming where it went and where not, and is counted (`count`) for the alerts.
 */
export function createDirectSends(direct: DirectSenders, log: (line: string) => void) {
  let sent = 0;
  return {
    /** Leads sent directly since the process started. */
    count: () => sent,
    async send(lead: Lead, why: string): Promise<DirectOutcome> {
      const senders = DESTINATIONS.flatMap((name) => {
        const send = direct[name];
        return send ? [{ name, send }] : [];
      });
      if (senders.length === 0) return { kind: "unkept", reachable: false };
      const results = await Promise.all(
        senders.map(async ({ name, send }) => ({ name, result: await send(lead) })),
      );
      const to = results.filter(({ result }) => result.ok).map(({ name }) => name);
      if (to.length === 0) return { kind: "unkept", reachable: true };
      sent += 1;
      const missed = results.filter(({ result }) => !result.ok).map(({ name }) => name);
      log(
        `lead store: lead ${lead.id} could not be kept (${why}); sent directly to ${to.join(" and ")}${missed.length > 0 ? `, not to ${missed.join(" and ")}` : ""}: it is in no store and not in npm run leads`,
      );
      return { kind: "sent", id: lead.id, to };
    },
  };
}
