/** `npm run leads -- find`: the lead of an enquiry's reference, or every lead of one person. */
import { parsePersonQuery } from "~/lead-parts/person";
import { leadReference, parseReference } from "~/lead-parts/reference";
import type { Lead } from "~/leads/lead";
import { leadsWithReferenceIn, personLeads, personQueryOf } from "~/leads/operations/listing.server";
import { showInvisible } from "~/text/invisible-characters";
import { printStreamedTable, printTable } from "../table.js";
import { type LeadsCommand, plural, printJson, time } from "./output";

/**
 * The lead of an enquiry's reference (`NRM-7KQ2-M9XD`, any case, dashes or none), or every lead
 * of one person (by e-mail address or phone number), newest first: a table read twice (its
 * widths, then its lines), or JSON. A reference two leads share is said to be ambiguous, and both
 * are listed.
 */
export async function find(command: LeadsCommand, what: string) {
  const reference = parsePersonQuery(what) === null ? parseReference(what) : null;
  if (reference !== null) return findReference(command, reference);
  const query = personQueryOf(what);
  const leads = () => personLeads(command.store, query, "newest first");
  if (command.json) return printJson(leads());
  const count = await printStreamedTable(async function* () {
    for await (const lead of leads()) yield foundRow(lead);
  });
  if (count === 0) return console.log("No lead of that person.");
  console.log(
    `${plural(count, "lead")}. Delete them all with: npm run leads -- erase ${showInvisible(what)}`,
  );
}

async function findReference({ store, json }: LeadsCommand, reference: string) {
  // One lead, or the few an ambiguous reference names: kept to be counted before they are shown.
  const leads: Lead[] = [];
  for await (const lead of leadsWithReferenceIn(store, reference, "newest first")) leads.push(lead);
  if (json) return printJson(leads);
  if (leads.length === 0) return console.log(`No lead has the reference ${reference}.`);
  printTable(leads.map(foundRow));
  if (leads.length === 1) {
    console.log(`Delete it with: npm run leads -- erase ${leads[0]?.id}`);
  } else {
    console.log(
      `${reference} is ambiguous: ${leads.length} leads have it. Ask the sender for their e-mail address or phone number, and find them by it.`,
    );
  }
}

/** A found lead's line: enough to tell it from another and to erase it. */
function foundRow(lead: Lead) {
  return {
    time: time(lead),
    state: lead.state,
    reason: lead.reason ?? "",
    id: lead.id,
    reference: leadReference(lead.id),
    name: showInvisible(lead.enquiry.name),
    "e-mail": showInvisible(lead.enquiry.email),
    phone: `+${lead.enquiry.countryCode} ${lead.enquiry.phoneNumber}`,
  };
}
