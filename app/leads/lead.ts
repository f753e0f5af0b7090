/** The lead record: its states, how it is made, named on disk, parsed and logged. */
import { ENQUIRY_FIELDS, type Enquiry } from "~/lead-parts/enquiry";
import { type PrivacyNoticeRecord, parsePrivacyNoticeRecord } from "~/lead-parts/privacy-notice";
import { type LeadSource, parseLeadSource } from "~/lead-parts/source";
import { SPAM_REASONS, type SpamReason } from "~/lead-parts/spam-reasons";

/**
 * `pending`: waiting to be delivered to EmailJS; `sent`: EmailJS accepted it; `failed`: EmailJS
 * refused it for good, or 72 h of retries ran out; `inbox`: kept while no EmailJS is configured,
 * so the store itself is where the team reads it; `spam`: caught by a filter and quarantined,
 * never delivered unless an operator releases it.
 */
export const LEAD_STATES = ["pending", "sent", "failed", "inbox", "spam"] as const;
export type LeadState = (typeof LEAD_STATES)[number];

/**
 * The states of a lead that has not reached the agency: these count toward the store's cap and
 * are never removed to make room. Only `sent` leads (delivered) may be.
 */
export const UNDELIVERED_STATES: readonly LeadState[] = ["pending", "inbox", "failed"];

/** One enquiry as the lead store keeps it: one JSON file per lead. */
export interface Lead {
  id: string;
  /** ISO time the visitor's enquiry was stored. */
  receivedAt: string;
  state: LeadState;
  attempts: number;
  lastError: string | null;
  /** ISO time of the next delivery attempt of a `pending` lead. */
  nextAttemptAt: string;
  /** ISO time the current round of retries began: the 72 h limit counts from here. */
  queuedAt: string;
  enquiry: Enquiry;
  /** The filter that quarantined it (kept after a release, as its history). */
  reason?: SpamReason;
  /** ISO time an operator released it from the quarantine (`npm run leads -- release ID`). */
  releasedAt?: string;
  /** Where the visitor came from (campaign, click id, referring site); leads from before it have none. */
  source?: LeadSource;
  /** The privacy notice its sender was shown, when the server knew it; leads from before it have none. */
  privacyNotice?: PrivacyNoticeRecord;
}

/** A lead as it is first stored at `at`: nothing tried yet, due at once. */
export function newLead(options: {
  id: string;
  enquiry: Enquiry;
  state: LeadState;
  at: Date;
  reason?: SpamReason;
  source?: LeadSource;
  privacyNotice?: PrivacyNoticeRecord;
}): Lead {
  const at = options.at.toISOString();
  return {
    id: options.id,
    receivedAt: at,
    state: options.state,
    attempts: 0,
    lastError: null,
    nextAttemptAt: at,
    queuedAt: at,
    enquiry: options.enquiry,
    ...(options.reason ? { reason: options.reason } : {}),
    ...(options.source ? { source: options.source } : {}),
    ...(options.privacyNotice ? { privacyNotice: options.privacyNotice } : {}),
  };
}

/** A lead's id: a UUID, in lower case, as `randomUUID()` makes it. */
export const LEAD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The only name a lead's file may have: `<receivedAt in ms, 13 digits>-<id>.json`. */
export const LEAD_FILE_NAME = /^\d{13}-([0-9a-f-]{36})\.json$/;

export function leadFileName(lead: Pick<Lead, "id" | "receivedAt">): string {
  return `${String(Date.parse(lead.receivedAt)).padStart(13, "0")}-${lead.id}.json`;
}

/** The lead id in a lead file's name; null for any other name. */
export function leadIdOfFileName(name: string): string | null {
  return LEAD_FILE_NAME.exec(name)?.[1] ?? null;
}

/**
 * The lead a file holds, or null when the text is not a complete lead record. A source or a
 * privacy notice record that is not what the site writes is left out: the lead itself is still read.
 */
export function parseLead(text: string): Lead | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null) return null;
  const lead = value as Record<string, unknown>;
  const enquiry = lead.enquiry as Record<string, unknown> | null | undefined;
  const complete =
    typeof lead.id === "string" &&
    LEAD_ID.test(lead.id) &&
    typeof lead.receivedAt === "string" &&
    Number.isFinite(Date.parse(lead.receivedAt)) &&
    LEAD_STATES.includes(lead.state as LeadState) &&
    typeof lead.attempts === "number" &&
    (lead.lastError === null || typeof lead.lastError === "string") &&
    typeof lead.nextAttemptAt === "string" &&
    typeof lead.queuedAt === "string" &&
    (lead.reason === undefined || SPAM_REASONS.includes(lead.reason as SpamReason)) &&
    (lead.state !== "spam" || lead.reason !== undefined) &&
    (lead.releasedAt === undefined || typeof lead.releasedAt === "string") &&
    typeof enquiry === "object" &&
    enquiry !== null &&
    ENQUIRY_FIELDS.every((field) => typeof enquiry[field] === "string");
  if (!complete) return null;
  if (lead.source !== undefined) {
    const source = parseLeadSource(lead.source);
    if (source) lead.source = source;
    else delete lead.source;
  }
  if (lead.privacyNotice !== undefined) {
    const privacyNotice = parsePrivacyNoticeRecord(lead.privacyNotice);
    if (privacyNotice) lead.privacyNotice = privacyNotice;
    else delete lead.privacyNotice;
  }
  return value as Lead;
}

/**
 * The log line of a state change: never the visitor's words, name, e-mail or phone. A
 * quarantined lead says why, and a released one says so in every line after its release.
 */
export function logLeadState(
  lead: Pick<Lead, "id" | "state" | "attempts" | "reason" | "releasedAt">,
  state: string = lead.state,
): void {
  const { id, attempts, reason, releasedAt } = lead;
  const note = releasedAt ? { released: releasedAt, reason } : lead.state === "spam" ? { reason } : {};
  console.log(JSON.stringify({ event: "lead", id, state, attempts, ...note }));
}
