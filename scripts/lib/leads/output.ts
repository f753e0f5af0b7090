/** What every form of `npm run leads` prints with: a lead's time and source, counts, JSON lines, the log line. */
import type { Database } from "~/db/database.server";
import { describeSource } from "~/lead-parts/source";
import type { LeadStore } from "~/leads/contract.server";
import type { Lead } from "~/leads/lead";
import { leadJson } from "~/leads/operations/lead-view";
import { showInvisible } from "~/text/invisible-characters";

/** What each form is run on: the store, its database (null on the data folder), and `--json`. */
export interface LeadsCommand {
  store: LeadStore;
  database: Database | null;
  json: boolean;
}

/** `google / cpc / spring-launch`, `linkedin.com (referral)`, `direct`; `unknown` for a lead from before sources were kept. */
export function sourceOf(lead: Lead) {
  return showInvisible(describeSource(lead.source));
}

export function time(lead: Lead) {
  return lead.receivedAt.replace("T", " ").slice(0, 19);
}

export function plural(count: number, noun: string) {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

export async function printJson(leads: AsyncIterable<Lead> | Iterable<Lead>) {
  for await (const lead of leads) {
    // JSON.stringify leaves bidi and other invisible characters raw: escaped, they still parse the same.
    console.log(showInvisible(JSON.stringify(leadJson(lead)), "json"));
  }
}

/** One JSON line for the operator's log: ids and counts, never the person's data. */
export function logLine(fields: Record<string, unknown>) {
  console.error(JSON.stringify(fields));
}
