/** The lead webhook's three events (`lead.received`, `lead.failed`, `lead.erased`) as Standard Webhooks messages. */
import type { DeliveryError, LeadToSend } from "~/destinations/destination";
import { leadReference } from "~/lead-parts/reference";
import { clickIdOf, describeSource } from "~/lead-parts/source";

export const WEBHOOK_EVENTS = ["lead.received", "lead.failed", "lead.erased"] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

/**
 * One event, ready to send: `id` (the `webhook-id` header) and `body` are the same in every
 * attempt, so a receiver can drop repeats, and only the signature's time changes.
 */
export interface WebhookMessage {
  id: string;
  type: WebhookEventType;
  body: string;
}

/** `{"type", "timestamp", "data"}`: the Standard Webhooks body. `at` is when the event happened. */
function message(
  id: string,
  type: WebhookEventType,
  at: string,
  data: Record<string, unknown>,
): WebhookMessage {
  return { id, type, body: JSON.stringify({ type, timestamp: at, data }) };
}

/**
 * A new lead, for the CRM: the five fields as stored, where it came from (the source record,
 * its one line as the mail shows it, the ad-click id), when, and the privacy notice its sender
 * was shown (null when not known), and the reference its sender was shown (`NRM-7KQ2-M9XD`).
 */
export function leadReceived(lead: LeadToSend): WebhookMessage {
  const { name, email, countryCode, phoneNumber, message: text } = lead.enquiry;
  return message(`msg_${lead.id}_received`, "lead.received", lead.receivedAt, {
    id: lead.id,
    reference: leadReference(lead.id),
    receivedAt: lead.receivedAt,
    name,
    email,
    countryCode,
    phoneNumber,
    message: text,
    source: lead.source ?? null,
    sourceSummary: describeSource(lead.source),
    clickId: clickIdOf(lead.source) || null,
    privacyNotice: lead.privacyNotice ?? null,
  });
}

/**
 * A destination gave up on a lead: which, after how many attempts, and why. No personal data:
 * the receiver already holds the lead by its id (or its reference), or should look it up by it.
 */
export function leadFailed(failure: {
  leadId: string;
  destination: string;
  attempts: number;
  lastError: DeliveryError;
  /** ISO time it gave up; a failure after a later retry is a new event. */
  failedAt: string;
}): WebhookMessage {
  const { leadId, destination, attempts, lastError, failedAt } = failure;
  return message(`msg_${leadId}_failed_${destination}_${Date.parse(failedAt)}`, "lead.failed", failedAt, {
    id: leadId,
    reference: leadReference(leadId),
    destination,
    attempts,
    lastError: {
      ...(lastError.status === undefined ? {} : { status: lastError.status }),
      cause: lastError.cause.slice(0, 200),
    },
  });
}

/** An operator erased the lead: the receiver erases its copy too. Its id, nothing else. */
export function leadErased(erasure: { leadId: string; erasedAt: string }): WebhookMessage {
  return message(`msg_${erasure.leadId}_erased`, "lead.erased", erasure.erasedAt, { id: erasure.leadId });
}
