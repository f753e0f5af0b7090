/**
 * The operator's reads of a lead store, on its contract and streamed: a listing newest first, one
 * lead by its id, a person's leads, and the leads per source; none holds every lead at once.
 */
import { isPerson, type PersonQuery, parsePersonQuery } from "~/lead-parts/person";
import { hasReference } from "~/lead-parts/reference";
import { channelOf } from "~/lead-parts/source";
import type { LeadOrder, LeadStore } from "~/leads/contract.server";
import { type Lead, type LeadState, UNDELIVERED_STATES } from "~/leads/lead";
import { showInvisible } from "~/text/invisible-characters";
import { refuse } from "./refused";

/** Which leads a listing shows: those of one `state`, or else the quarantine (`spam`) or every lead not in it. */
export interface Selection {
  spam: boolean;
  state?: LeadState;
}

export function isSelected({ spam, state }: Selection, lead: Lead): boolean {
  return state === undefined ? (lead.state === "spam") === spam : lead.state === state;
}

/**
 * The leads `selection` names, newest first, a page at a time; `seen` is told of every lead
 * read, selected or not (a listing counts the quarantine on the way).
 */
export async function* selectedLeads(
  store: LeadStore,
  selection: Selection,
  seen?: (lead: Lead) => void,
): AsyncGenerator<Lead> {
  for await (const lead of store.each(undefined, "newest first")) {
    seen?.(lead);
    if (isSelected(selection, lead)) yield lead;
  }
}

/** The lead `id`, read a page at a time; null when the store does not keep it. */
export async function findLead(store: LeadStore, id: string): Promise<Lead | null> {
  for await (const lead of store.each()) if (lead.id === id) return lead;
  return null;
}

/** The operator's words for a person (`asha@example.in`, `919876543210`), or the line that says what they must be. */
export function personQueryOf(who: string): PersonQuery {
  return (
    parsePersonQuery(who) ??
    refuse(
      "name the person by e-mail address (asha@example.in) or phone number with country code (919876543210)",
    )
  );
}

/** Every lead of one person, in any state, oldest first or newest first, a page at a time. */
export async function* personLeads(
  store: LeadStore,
  query: PersonQuery,
  order: LeadOrder = "oldest first",
): AsyncGenerator<Lead> {
  for await (const lead of store.each(undefined, order)) if (isPerson(lead.enquiry, query)) yield lead;
}

/** The leads whose reference (~/lead-parts/reference) is `reference`: one, or more when it is ambiguous. */
export async function* leadsWithReferenceIn(
  store: LeadStore,
  reference: string,
  order: LeadOrder = "oldest first",
): AsyncGenerator<Lead> {
  for await (const lead of store.each(undefined, order)) if (hasReference(lead.id, reference)) yield lead;
}

/** One line of the leads per source: its channel, and its leads by what became of them. */
export interface SourceRow {
  source: string;
  medium: string;
  campaign: string;
  /** `sent`. */
  delivered: number;
  /** `pending`, `inbox`, `failed`. */
  waiting: number;
  /** `spam`. */
  quarantined: number;
}

/**
 * Leads per source, medium and campaign received since `since`, most leads first (then by
 * name); what is kept is one row per channel, however many leads.
 */
export async function leadsPerSource(store: LeadStore, since: Date): Promise<SourceRow[]> {
  const rows = new Map<string, SourceRow>();
  for await (const lead of store.each(since)) {
    if (Date.parse(lead.receivedAt) < since.getTime()) continue;
    const channel = channelOf(lead.source);
    const key = JSON.stringify([channel.source, channel.medium, channel.campaign]);
    const row = rows.get(key) ?? { ...channel, delivered: 0, waiting: 0, quarantined: 0 };
    if (lead.state === "sent") row.delivered += 1;
    else if (UNDELIVERED_STATES.includes(lead.state)) row.waiting += 1;
    else row.quarantined += 1;
    rows.set(key, row);
  }
  const total = (row: SourceRow) => row.delivered + row.waiting + row.quarantined;
  return [...rows.values()].sort(
    (a, b) =>
      total(b) - total(a) ||
      `${a.source}/${a.medium}/${a.campaign}`.localeCompare(`${b.source}/${b.medium}/${b.campaign}`),
  );
}

/** `no lead …` for an id the store does not keep, its invisible characters shown. */
export function noLead(id: string): never {
  return refuse(`no lead ${showInvisible(id)}`);
}
