/** The lead record: its destinations and derived state, how it is made, named on disk, parsed and logged. */
import { DESTINATIONS, type DestinationName } from "~/destinations/lookup.server";
import { ENQUIRY_FIELDS, type Enquiry } from "~/lead-parts/enquiry";
import { type LeadSource, parseLeadSource } from "~/lead-parts/source";
import { SPAM_REASONS, type SpamReason } from "~/lead-parts/spam-reasons";
import { type PrivacyNoticeRecord, parsePrivacyNoticeRecord } from "~/privacy-notice/record";

/**
 * A lead's own state, derived from its destinations (`leadStateOf`): `spam` while quarantined
 * (never delivered unless an operator releases it); `inbox` when it goes to no destination, so the
 * store itself is where the team reads it; `pending` while any destination waits to deliver it;
 * `failed` when one gave up on it and none waits; `sent` when every destination has it.
 */
export const LEAD_STATES = ["pending", "sent", "failed", "inbox", "spam"] as const;
export type LeadState = (typeof LEAD_STATES)[number];

/**
 * The states of a lead that has not reached the agency (`pending`, `inbox`, `failed`): these count
 * toward the store's cap and are never removed to make room. Only `sent` leads (delivered) may be.
 */
export const UNDELIVERED_STATES: readonly LeadState[] = ["pending", "inbox", "failed"];

/** One destination's delivery of a lead: `failed` when it refused for good or 72 h of retries ran out. */
export const DELIVERY_STATES = ["pending", "sent", "failed"] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/** One destination's delivery of one lead: its own state, attempts, last error and retries. */
export interface DeliveryRecord {
  state: DeliveryState;
  attempts: number;
  lastError: string | null;
  /** ISO time of the next attempt while `pending`. */
  nextAttemptAt: string;
  /** ISO time the current round of retries began: the 72 h limit counts from here. */
  queuedAt: string;
}

/** The destinations a lead goes to (those configured when it was received or released), each with its record. */
export type LeadDestinations = Partial<Record<DestinationName, DeliveryRecord>>;

/** One enquiry as the lead store keeps it. */
export interface Lead {
  id: string;
  /** ISO time the visitor's enquiry was stored. */
  receivedAt: string;
  /** Always `leadStateOf` the lead: kept as a field so every reader sees the same. */
  state: LeadState;
  /** `{}` for an `inbox` or `spam` lead. */
  destinations: LeadDestinations;
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

/** The destinations of a lead, in the order of DESTINATIONS. */
export function destinationsOf(lead: Pick<Lead, "destinations">): DestinationName[] {
  return DESTINATIONS.filter((name) => lead.destinations[name] !== undefined);
}

/** The lead's own state: see LEAD_STATES. `quarantined`: it is in the quarantine. */
export function leadStateOf(destinations: LeadDestinations, quarantined = false): LeadState {
  if (quarantined) return "spam";
  const states = Object.values(destinations).map((record) => record.state);
  if (states.length === 0) return "inbox";
  if (states.includes("pending")) return "pending";
  if (states.includes("failed")) return "failed";
  return "sent";
}

/**
 * `lead` with one destination's record replaced (or, with `record` undefined, the destination
 * dropped) and its state derived again.
 */
export function withDelivery(
  lead: Lead,
  destination: DestinationName,
  record: DeliveryRecord | undefined,
): Lead {
  const destinations = { ...lead.destinations };
  if (record) destinations[destination] = record;
  else delete destinations[destination];
  return { ...lead, destinations, state: leadStateOf(destinations, lead.state === "spam") };
}

/** A fresh record: nothing tried yet, due at `at`. */
export function newDelivery(at: string): DeliveryRecord {
  return { state: "pending", attempts: 0, lastError: null, nextAttemptAt: at, queuedAt: at };
}

/** Records for `destinations`, all due at `at`. */
export function newDeliveries(destinations: readonly DestinationName[], at: string): LeadDestinations {
  return Object.fromEntries(destinations.map((name) => [name, newDelivery(at)]));
}

/** A lead as it is first stored at `at`: nothing tried yet, due at once at each of `destinations` (none when quarantined). */
export function newLead(options: {
  id: string;
  enquiry: Enquiry;
  destinations: readonly DestinationName[];
  at: Date;
  /** Given: the lead is quarantined, for this reason, and goes nowhere. */
  reason?: SpamReason;
  source?: LeadSource;
  privacyNotice?: PrivacyNoticeRecord;
}): Lead {
  const at = options.at.toISOString();
  const destinations = options.reason ? {} : newDeliveries(options.destinations, at);
  return {
    id: options.id,
    receivedAt: at,
    state: leadStateOf(destinations, options.reason !== undefined),
    destinations,
    enquiry: options.enquiry,
    ...(options.reason ? { reason: options.reason } : {}),
    ...(options.source ? { source: options.source } : {}),
    ...(options.privacyNotice ? { privacyNotice: options.privacyNotice } : {}),
  };
}

/**
 * EmailJS's record as a lead's own fields hold it (the `leads` row's columns, a lead file's top
 * level), as the release before this one wrote and reads them: that release, still running during
 * a rolling deploy, sees EmailJS's state, and `inbox` for a lead without EmailJS, so it never
 * sends one EmailJS is not meant to get. Docs: docs/decisions/024-lead-destinations.md.
 */
export interface OwnFields {
  state: "pending" | "sent" | "failed" | "inbox" | "spam";
  attempts: number;
  lastError: string | null;
  nextAttemptAt: string;
  queuedAt: string;
}

export function ownFieldsOf(lead: Lead): OwnFields {
  const emailjs = lead.destinations.emailjs;
  if (emailjs) return { ...emailjs };
  const at = lead.releasedAt ?? lead.receivedAt;
  return {
    state: lead.state === "spam" ? "spam" : "inbox",
    attempts: 0,
    lastError: null,
    nextAttemptAt: at,
    queuedAt: at,
  };
}

/**
 * What the release before this one stored: the lead's own fields were EmailJS's record, and a
 * `pending`, `sent` or `failed` lead went to EmailJS only; an `inbox` or `spam` one to none.
 */
export function legacyDestinations(own: OwnFields): LeadDestinations {
  if (own.state === "inbox" || own.state === "spam") return {};
  const { state, attempts, lastError, nextAttemptAt, queuedAt } = own;
  return { emailjs: { state, attempts, lastError, nextAttemptAt, queuedAt } };
}

/** The attempts, last error and next attempt of a lead over its destinations (EmailJS's alone for an EmailJS-only lead). */
export function deliverySummary(lead: Lead): {
  attempts: number;
  lastError: string | null;
  nextAttemptAt: string;
} {
  const records = destinationsOf(lead).map((name) => lead.destinations[name] as DeliveryRecord);
  const pending = records
    .filter((record) => record.state === "pending")
    .map((record) => record.nextAttemptAt);
  return {
    attempts: records.reduce((sum, record) => sum + record.attempts, 0),
    lastError: records.find((record) => record.lastError !== null)?.lastError ?? null,
    nextAttemptAt: pending.sort()[0] ?? ownFieldsOf(lead).nextAttemptAt,
  };
}

/** A lead's id: a UUID in lower case (random, or derived as ~/leads/lead-identity.server makes it). */
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

const isRecord = (value: unknown): value is DeliveryRecord => {
  const record = value as Record<string, unknown> | null;
  return (
    typeof record === "object" &&
    record !== null &&
    DELIVERY_STATES.includes(record.state as DeliveryState) &&
    typeof record.attempts === "number" &&
    (record.lastError === null || typeof record.lastError === "string") &&
    typeof record.nextAttemptAt === "string" &&
    typeof record.queuedAt === "string"
  );
};

/** The records of a stored `destinations` object; null when one of them is not a record. */
function parseDestinations(value: unknown): LeadDestinations | null {
  if (typeof value !== "object" || value === null) return null;
  const destinations: LeadDestinations = {};
  for (const name of DESTINATIONS) {
    const record = (value as Record<string, unknown>)[name];
    if (record === undefined) continue;
    if (!isRecord(record)) return null;
    const { state, attempts, lastError, nextAttemptAt, queuedAt } = record;
    destinations[name] = { state, attempts, lastError, nextAttemptAt, queuedAt };
  }
  return destinations;
}

/**
 * The lead a file holds, or null when the text is not a complete lead record. A file without
 * `destinations` was written by a release before them: its own fields are EmailJS's record. A
 * source or a privacy notice record that is not what the site writes is left out: the lead
 * itself is still read.
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
  const own = lead as unknown as OwnFields;
  const destinations =
    lead.destinations === undefined ? legacyDestinations(own) : parseDestinations(lead.destinations);
  if (!destinations) return null;
  const source = lead.source === undefined ? null : parseLeadSource(lead.source);
  const privacyNotice =
    lead.privacyNotice === undefined ? null : parsePrivacyNoticeRecord(lead.privacyNotice);
  const quarantined = own.state === "spam";
  return {
    id: lead.id as string,
    receivedAt: lead.receivedAt as string,
    state: leadStateOf(quarantined ? {} : destinations, quarantined),
    destinations: quarantined ? {} : destinations,
    enquiry: enquiry as unknown as Enquiry,
    ...(lead.reason !== undefined ? { reason: lead.reason as SpamReason } : {}),
    ...(lead.releasedAt !== undefined ? { releasedAt: lead.releasedAt as string } : {}),
    ...(source ? { source } : {}),
    ...(privacyNotice ? { privacyNotice } : {}),
  };
}

/**
 * A lead file's text: the lead, with EmailJS's record also in its own fields (`ownFieldsOf`), so
 * the release before this one still reads the file as it wrote it.
 */
export function leadFileText(lead: Lead): string {
  const { id, receivedAt, destinations, ...rest } = lead;
  const { state: _derived, ...details } = rest;
  return `${JSON.stringify({ id, receivedAt, ...ownFieldsOf(lead), destinations, ...details })}\n`;
}

/**
 * The log line of a lead's state change: never the visitor's words, name, e-mail or phone. A
 * quarantined lead says why, and a released one says so in every line after its release.
 */
export function logLeadState(lead: Lead, state: string = lead.state): void {
  const { id, reason, releasedAt } = lead;
  const { attempts } = deliverySummary(lead);
  const note = releasedAt ? { released: releasedAt, reason } : lead.state === "spam" ? { reason } : {};
  console.log(JSON.stringify({ event: "lead", id, state, attempts, ...note }));
}

/** The log line of one destination's delivery changing state: ids and counts only. */
export function logDeliveryState(
  lead: Pick<Lead, "id">,
  destination: DestinationName,
  record: DeliveryRecord,
): void {
  const { state, attempts } = record;
  console.log(JSON.stringify({ event: "delivery", id: lead.id, destination, state, attempts }));
}
