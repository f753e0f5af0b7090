// How `npm run leads` shows a lead's destinations: the table's line and the JSON object.
import { leadReference } from "~/lead-parts/reference";
import { type DeliveryRecord, deliverySummary, destinationsOf, type Lead } from "~/leads/lead";

/**
 * Each destination's state, in the order of DESTINATIONS, with its attempts and last error while
 * it is not sent: `emailjs sent · webhook pending (3, HTTP 502)`; empty for a lead without any
 * (`inbox`, `spam`).
 */
export function describeDeliveries(lead: Pick<Lead, "destinations">): string {
  return destinationsOf(lead)
    .map((name) => `${name} ${describeRecord(lead.destinations[name] as DeliveryRecord)}`)
    .join(" · ");
}

function describeRecord({ state, attempts, lastError }: DeliveryRecord): string {
  if (state === "sent") return state;
  return `${state} (${[attempts, ...(lastError === null ? [] : [lastError])].join(", ")})`;
}

/**
 * A lead as `--json` prints it: its fields flat (`state`, `attempts` and `lastError` over all its
 * destinations, as before destinations), the enquiry's fields, and `destinations`, each
 * destination's own record.
 */
export function leadJson(lead: Lead): Record<string, unknown> {
  const { enquiry, id, receivedAt, state, reason, releasedAt, source, privacyNotice } = lead;
  const { attempts, lastError, nextAttemptAt } = deliverySummary(lead);
  return {
    id,
    reference: leadReference(id),
    receivedAt,
    state,
    attempts,
    lastError,
    nextAttemptAt,
    destinations: Object.fromEntries(destinationsOf(lead).map((name) => [name, lead.destinations[name]])),
    ...(reason ? { reason } : {}),
    ...(releasedAt ? { releasedAt } : {}),
    ...(source ? { source } : {}),
    ...(privacyNotice ? { privacyNotice } : {}),
    ...enquiry,
  };
}
