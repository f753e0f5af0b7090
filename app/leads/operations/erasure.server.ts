/**
 * A person's request to be forgotten, on the store's contract: erases one lead (by its id) or every
 * lead of one person, and says which destinations may hold each, as the store knew them.
 */
import type { DestinationName } from "~/destinations/lookup.server";
import type { LeadStore } from "~/leads/contract.server";
import { LEAD_ID, type Lead } from "~/leads/lead";
import { findLead, noLead, personLeads, personQueryOf } from "./listing.server";

/** The leads an erasure deleted, oldest first, each with the destinations that may hold it. */
export interface Erasure {
  /** Whether the operator named one lead by its id (else a person). */
  byId: boolean;
  erased: { id: string; holding: DestinationName[] }[];
}

/**
 * Erases the lead `who` names by its id, or every lead of the person `who` names by e-mail
 * address or phone number. What each destination may hold is read by the erasure itself, after
 * it is recorded: a send that began before is named, one that would begin after never goes out.
 */
export async function eraseLeads(store: LeadStore, who: string): Promise<Erasure> {
  const id = who.trim().toLowerCase();
  const byId = LEAD_ID.test(id);
  const person = byId ? null : personQueryOf(who);
  // The folder store erases only leads it has read into its view.
  await store.scan();
  const leads: Lead[] = [];
  if (person === null) leads.push((await findLead(store, id)) ?? noLead(who));
  else {
    // One person's leads: a few, kept until each is erased.
    for await (const lead of personLeads(store, person)) leads.push(lead);
  }
  const erased: Erasure["erased"] = [];
  for (const lead of leads) erased.push({ id: lead.id, holding: await store.erase(lead) });
  return { byId, erased };
}
