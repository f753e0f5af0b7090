/** `npm run leads -- --csv`: the spreadsheet export on stdout. */
import type { LeadStore } from "~/leads/contract.server";
import { type ExportFilter, exportLeads } from "~/leads/operations/export.server";

/**
 * The spreadsheet export, oldest first: the leads not quarantined, or the quarantine
 * (`--spam`), or one state (`--state`), received on or after the start of `--since` (UTC).
 */
export async function csv(store: LeadStore, filter: ExportFilter) {
  try {
    await exportLeads(store, filter, process.stdout);
  } catch (error) {
    // The reader stopped early (`| head`): what it read is what it asked for.
    if ((error as NodeJS.ErrnoException).code === "EPIPE") return;
    console.error(
      `leads: cannot write the export: ${error instanceof Error ? error.message : String(error)}`,
    );
    process.exit(1);
  }
}
