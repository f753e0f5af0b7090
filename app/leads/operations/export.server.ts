/**
 * The spreadsheet export on the store's contract: the leads a filter names, oldest first, read a
 * page at a time as the CSV's reader takes the rows.
 */
import type { Writable } from "node:stream";
import type { LeadStore } from "~/leads/contract.server";
import type { Lead } from "~/leads/lead";
import { writeLeadsCsv } from "./leads-csv";

/** Which leads an export holds: one `state` (else every lead not quarantined), received on or after the start of `since` (UTC). */
export interface ExportFilter {
  state?: string;
  /** A calendar date, YYYY-MM-DD. */
  since?: string;
}

/** Writes the leads `filter` names to `out` as CSV (leads-csv.ts), memory flat however many leads; `out` is left open. */
export async function exportLeads(store: LeadStore, { state, since }: ExportFilter, out: Writable) {
  const start = since === undefined ? undefined : new Date(`${since}T00:00:00Z`);
  const leads = async function* (): AsyncGenerator<Lead> {
    for await (const lead of store.each(start)) {
      if (state === undefined ? lead.state !== "spam" : lead.state === state) yield lead;
    }
  };
  await writeLeadsCsv(leads(), out);
}
