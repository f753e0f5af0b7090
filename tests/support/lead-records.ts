import { type DeliveryRecord, type Lead, newDelivery, withDelivery } from "~/leads/lead";

/** `lead` with its EmailJS record changed as `changes` say (a fresh one first, for a lead without it). */
export function emailjsAs(lead: Lead, changes: Partial<DeliveryRecord>): Lead {
  return withDelivery(lead, "emailjs", {
    ...(lead.destinations.emailjs ?? newDelivery(lead.receivedAt)),
    ...changes,
  });
}
