/** `npm run leads` and `--spam`: the inbox view or the quarantine, newest first, as a table or JSON. */

import { leadReference } from "~/lead-parts/reference";
import type { Lead, LeadState } from "~/leads/lead";
import { describeDeliveries } from "~/leads/operations/lead-view";
import { selectedLeads } from "~/leads/operations/listing.server";
import { showInvisible } from "~/text/invisible-characters";
import { printStreamedTable } from "../table.js";
import { type LeadsCommand, plural, printJson, sourceOf, time } from "./output";

/**
 * The inbox view (every lead not quarantined), or with `spam` the quarantine, newest first; with
 * `state`, only the leads in that state. Streamed: a table reads the store twice (its widths,
 * then its lines), JSON once.
 */
export async function list({ store, json }: LeadsCommand, spam: boolean, state?: LeadState) {
  const selection = { spam, state };
  if (json) return printJson(selectedLeads(store, selection));
  let quarantined = 0;
  let reads = 0;
  const countQuarantined = (lead: Lead) => {
    if (lead.state === "spam") quarantined += 1;
  };
  const shown = await printStreamedTable(async function* () {
    // Counted on the first read only, the one that measures.
    reads += 1;
    for await (const lead of selectedLeads(store, selection, reads === 1 ? countQuarantined : undefined)) {
      yield spam ? quarantineRow(lead) : inboxRow(lead);
    }
  });
  if (shown === 0) {
    console.log(
      state !== undefined
        ? `No ${state} leads in ${store.folder}.`
        : spam
          ? "The quarantine is empty."
          : `No leads in ${store.folder}.`,
    );
  } else if (spam) {
    console.log("Release one into the delivery queue with: npm run leads -- release ID");
  }
  if (!spam && state === undefined && quarantined > 0) {
    console.log(`${plural(quarantined, "lead")} in the quarantine: npm run leads -- --spam`);
  }
}

function quarantineRow(lead: Lead) {
  return {
    time: time(lead),
    reason: lead.reason ?? "",
    id: lead.id,
    reference: leadReference(lead.id),
    name: showInvisible(lead.enquiry.name),
    "e-mail": showInvisible(lead.enquiry.email),
    source: sourceOf(lead),
  };
}

function inboxRow(lead: Lead) {
  return {
    time: time(lead),
    state: lead.state,
    reference: leadReference(lead.id),
    name: showInvisible(lead.enquiry.name),
    "e-mail": showInvisible(lead.enquiry.email),
    source: sourceOf(lead),
    destinations: showInvisible(describeDeliveries(lead)),
  };
}
