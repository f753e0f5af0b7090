/** How a lead maps to a row of the `leads` table and its `lead_deliveries` rows, and back. */
import type { PoolClient } from "pg";
import { DESTINATIONS, type DestinationName } from "~/destinations/lookup.server";
import { ENQUIRY_FIELDS, type Enquiry } from "~/lead-parts/enquiry";
import { parseLeadSource } from "~/lead-parts/source";
import { SPAM_REASONS, type SpamReason } from "~/lead-parts/spam-reasons";
import {
  DELIVERY_STATES,
  type DeliveryRecord,
  type DeliveryState,
  destinationsOf,
  LEAD_STATES,
  type Lead,
  type LeadDestinations,
  type LeadState,
  leadStateOf,
  legacyDestinations,
  type OwnFields,
  ownFieldsOf,
} from "~/leads/lead";
import { parsePrivacyNoticeRecord } from "~/privacy-notice/record";

/** One `lead_deliveries` row as `LEAD_SELECT` reads it (its times already ISO strings). */
interface DeliveryRow {
  destination: string;
  state: string;
  attempts: number;
  lastError: string | null;
  nextAttemptAt: string;
  queuedAt: string;
}

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
  /** Null for a lead a release before destinations stored (adopted by the deliverer). */
  destinations?: string[] | null;
  /** Its destinations other than EmailJS (`LEAD_SELECT`); null when it has none. */
  deliveries?: DeliveryRow[] | null;
}

/** The columns of a lead, in the order of `LEAD_VALUES`. */
export const LEAD_COLUMNS =
  "id, received_at, state, attempts, last_error, next_attempt_at, queued_at, enquiry, reason, released_at, source, privacy_notice, destinations";
export const LEAD_VALUES =
  "$1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10, $11::jsonb, $12::jsonb, $13::text[]";

const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** What a SELECT from `leads l` reads of a lead: its columns and the records of its other destinations. */
export const LEAD_SELECT = `${LEAD_COLUMNS.split(", ")
  .map((column) => `l.${column}`)
  .join(", ")},
  (SELECT json_agg(json_build_object('destination', d.destination, 'state', d.state, 'attempts', d.attempts,
     'lastError', d.last_error, 'nextAttemptAt', ${iso("d.next_attempt_at")}, 'queuedAt', ${iso("d.queued_at")}))
   FROM lead_deliveries d WHERE d.lead_id = l.id) AS deliveries`;

/** Whether lead `l` has a `lead_deliveries` record in `state`. */
const hasDelivery = (state: DeliveryState) =>
  `EXISTS (SELECT 1 FROM lead_deliveries d WHERE d.lead_id = l.id AND d.state = '${state}')`;

/**
 * The lead's own state (`leadStateOf`) in SQL, for a row `l` of `leads`: its own columns are
 * EmailJS's record, `lead_deliveries` hold the others.
 */
export const LEAD_STATE_SQL = `CASE
  WHEN l.state = 'spam' THEN 'spam'
  WHEN l.state = 'pending' OR ${hasDelivery("pending")} THEN 'pending'
  WHEN l.state = 'failed' OR ${hasDelivery("failed")} THEN 'failed'
  WHEN l.state = 'sent' OR ${hasDelivery("sent")} THEN 'sent'
  ELSE 'inbox' END`;

/** The values of `LEAD_COLUMNS` for `lead`: EmailJS's record in the row's own columns. */
export function leadValues(lead: Lead): unknown[] {
  const own = ownFieldsOf(lead);
  return [
    lead.id,
    lead.receivedAt,
    own.state,
    own.attempts,
    own.lastError,
    own.nextAttemptAt,
    own.queuedAt,
    JSON.stringify(lead.enquiry),
    lead.reason ?? null,
    lead.releasedAt ?? null,
    lead.source === undefined ? null : JSON.stringify(lead.source),
    lead.privacyNotice === undefined ? null : JSON.stringify(lead.privacyNotice),
    destinationsOf(lead),
  ];
}

/** Writes one destination's record other than EmailJS's (a new one, or over the one stored). */
export const UPSERT_DELIVERY = `INSERT INTO lead_deliveries
     (lead_id, destination, state, attempts, last_error, next_attempt_at, queued_at, lease_until)
   VALUES ($1, $2, $3, $4, $5, $6, $7, NULL)
   ON CONFLICT (lead_id, destination) DO UPDATE SET state = EXCLUDED.state, attempts = EXCLUDED.attempts,
     last_error = EXCLUDED.last_error, next_attempt_at = EXCLUDED.next_attempt_at,
     queued_at = EXCLUDED.queued_at, lease_until = NULL`;

/** Writes a stored record other than EmailJS's (none written when the lead, and so its row, is gone). */
export const UPDATE_DELIVERY = `UPDATE lead_deliveries
   SET (state, attempts, last_error, next_attempt_at, queued_at, lease_until) = ($3, $4, $5, $6, $7, NULL)
   WHERE lead_id = $1 AND destination = $2`;

export function deliveryValues(id: string, destination: DestinationName, record: DeliveryRecord): unknown[] {
  const { state, attempts, lastError, nextAttemptAt, queuedAt } = record;
  return [id, destination, state, attempts, lastError, nextAttemptAt, queuedAt];
}

/**
 * Writes the records of `lead`'s destinations other than EmailJS, and deletes those it no
 * longer goes to, in the caller's transaction (the row is already written).
 */
export async function writeOtherDeliveries(client: PoolClient, lead: Lead): Promise<void> {
  const others = destinationsOf(lead).filter((name) => name !== "emailjs");
  await client.query(
    "DELETE FROM lead_deliveries WHERE lead_id = $1 AND NOT (destination = ANY($2::text[]))",
    [lead.id, others],
  );
  for (const name of others) {
    await client.query(
      UPSERT_DELIVERY,
      deliveryValues(lead.id, name, lead.destinations[name] as DeliveryRecord),
    );
  }
}

const isEnquiry = (value: unknown): value is Enquiry =>
  typeof value === "object" &&
  value !== null &&
  ENQUIRY_FIELDS.every((field) => typeof (value as Record<string, unknown>)[field] === "string");

/** The destinations of a row: EmailJS's record from its own columns, the others from `lead_deliveries`. */
function destinationsOfRow(own: OwnFields, deliveries: readonly DeliveryRow[]): LeadDestinations {
  const destinations = legacyDestinations(own);
  for (const row of deliveries) {
    const name = row.destination as DestinationName;
    // EmailJS's record is the row's own; a destination or state this release does not know is left out.
    if (name === "emailjs" || !DESTINATIONS.includes(name)) continue;
    if (!DELIVERY_STATES.includes(row.state as DeliveryState)) continue;
    const { attempts, lastError, nextAttemptAt, queuedAt } = row;
    destinations[name] = { state: row.state as DeliveryState, attempts, lastError, nextAttemptAt, queuedAt };
  }
  return destinations;
}

/** The lead a row holds, or null when a row is not one this release can deliver (a state it does not know). */
export function leadFromRow(row: LeadRow): Lead | null {
  if (!LEAD_STATES.includes(row.state as LeadState) || !isEnquiry(row.enquiry)) return null;
  if (row.reason !== null && !SPAM_REASONS.includes(row.reason as SpamReason)) return null;
  // A source or a privacy notice record this release cannot read is dropped, never the lead.
  const source = row.source === null || row.source === undefined ? null : parseLeadSource(row.source);
  const privacyNotice = parsePrivacyNoticeRecord(row.privacy_notice);
  const own: OwnFields = {
    state: row.state as OwnFields["state"],
    attempts: row.attempts,
    lastError: row.last_error,
    nextAttemptAt: row.next_attempt_at.toISOString(),
    queuedAt: row.queued_at.toISOString(),
  };
  const quarantined = own.state === "spam";
  const destinations = quarantined ? {} : destinationsOfRow(own, row.deliveries ?? []);
  return {
    id: row.id,
    receivedAt: row.received_at.toISOString(),
    state: leadStateOf(destinations, quarantined),
    destinations,
    enquiry: row.enquiry,
    ...(row.reason !== null ? { reason: row.reason as SpamReason } : {}),
    ...(row.released_at !== null ? { releasedAt: row.released_at.toISOString() } : {}),
    ...(source ? { source } : {}),
    ...(privacyNotice ? { privacyNotice } : {}),
  };
}

export const leadsFromRows = (rows: readonly LeadRow[]): Lead[] =>
  rows.flatMap((row) => leadFromRow(row) ?? []);
