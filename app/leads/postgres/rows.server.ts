/** How a lead maps to a row of the `leads` table, and back. */
import { ENQUIRY_FIELDS, type Enquiry } from "~/lead-parts/enquiry";
import { parsePrivacyNoticeRecord } from "~/lead-parts/privacy-notice";
import { parseLeadSource } from "~/lead-parts/source";
import { SPAM_REASONS, type SpamReason } from "~/lead-parts/spam-reasons";
import { LEAD_STATES, type Lead, type LeadState } from "~/leads/lead";

/** A lead as the `leads` table holds it (pg reads timestamptz as Date and jsonb as its value). */
export interface LeadRow {
  id: string;
  received_at: Date;
  state: string;
  attempts: number;
  last_error: string | null;
  next_attempt_at: Date;
  queued_at: Date;
  enquiry: unknown;
  reason: string | null;
  released_at: Date | null;
  source: unknown;
  /** Null for a lead without the record; absent from a row read before migration 0003. */
  privacy_notice?: unknown;
}

/** The columns of a lead, in the order of `LEAD_VALUES`. */
export const LEAD_COLUMNS =
  "id, received_at, state, attempts, last_error, next_attempt_at, queued_at, enquiry, reason, released_at, source, privacy_notice";
export const LEAD_VALUES = "$1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10, $11::jsonb, $12::jsonb";

/** The values of `LEAD_COLUMNS` for `lead`. */
export function leadValues(lead: Lead): unknown[] {
  return [
    lead.id,
    lead.receivedAt,
    lead.state,
    lead.attempts,
    lead.lastError,
    lead.nextAttemptAt,
    lead.queuedAt,
    JSON.stringify(lead.enquiry),
    lead.reason ?? null,
    lead.releasedAt ?? null,
    lead.source === undefined ? null : JSON.stringify(lead.source),
    lead.privacyNotice === undefined ? null : JSON.stringify(lead.privacyNotice),
  ];
}

const isEnquiry = (value: unknown): value is Enquiry =>
  typeof value === "object" &&
  value !== null &&
  ENQUIRY_FIELDS.every((field) => typeof (value as Record<string, unknown>)[field] === "string");

/** The lead a row holds, or null when a row is not one this release can deliver (a state it does not know). */
export function leadFromRow(row: LeadRow): Lead | null {
  if (!LEAD_STATES.includes(row.state as LeadState) || !isEnquiry(row.enquiry)) return null;
  if (row.reason !== null && !SPAM_REASONS.includes(row.reason as SpamReason)) return null;
  // A source or a privacy notice record this release cannot read is dropped, never the lead.
  const source = row.source === null || row.source === undefined ? null : parseLeadSource(row.source);
  const privacyNotice = parsePrivacyNoticeRecord(row.privacy_notice);
  const lead: Lead = {
    id: row.id,
    receivedAt: row.received_at.toISOString(),
    state: row.state as LeadState,
    attempts: row.attempts,
    lastError: row.last_error,
    nextAttemptAt: row.next_attempt_at.toISOString(),
    queuedAt: row.queued_at.toISOString(),
    enquiry: row.enquiry,
    ...(row.reason !== null ? { reason: row.reason as SpamReason } : {}),
    ...(row.released_at !== null ? { releasedAt: row.released_at.toISOString() } : {}),
    ...(source ? { source } : {}),
    ...(privacyNotice ? { privacyNotice } : {}),
  };
  return lead;
}

export const leadsFromRows = (rows: readonly LeadRow[]): Lead[] =>
  rows.flatMap((row) => leadFromRow(row) ?? []);
