/** `npm run leads -- --sources`: leads per source, medium and campaign over the last days. */
import type { LeadStore } from "~/leads/contract.server";
import { leadsPerSource } from "~/leads/operations/listing.server";
import { showInvisible } from "~/text/invisible-characters";
import { printTable } from "../table.js";
import { plural } from "./output";

/** Leads per source, medium and campaign received in the last `days` days, by what became of them. */
export async function sources(store: LeadStore, days: number) {
  const since = new Date(Date.now() - days * 24 * 60 * 60 * 1000);
  const rows = await leadsPerSource(store, since);
  const period = `the last ${plural(days, "day")} (since ${since.toISOString().replace("T", " ").slice(0, 16)} UTC)`;
  if (rows.length === 0) return console.log(`No leads in ${period}.`);
  console.log(
    `Leads per source over ${period}: delivered (sent), waiting (pending, inbox, failed), quarantined (spam).`,
  );
  printTable(
    rows.map((row) => ({
      source: showInvisible(row.source),
      medium: showInvisible(row.medium),
      campaign: showInvisible(row.campaign),
      delivered: row.delivered,
      waiting: row.waiting,
      quarantined: row.quarantined,
    })),
  );
}
