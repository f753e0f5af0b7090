/** Reads `npm run leads`'s arguments, or stops with its usage (exit 2) before the store is opened. */
import type { DestinationName } from "~/destinations/lookup.server";
import type { LeadState } from "~/leads/lead";
import { type FormName, optionProblem, readArguments, usageLine } from "~/leads/operations/command-forms";
import type { ExportFilter } from "~/leads/operations/export.server";

/** One invocation of `npm run leads`: its form (app/leads/operations/command-forms.ts) and what it names. */
export interface LeadsArguments {
  form: FormName<"leads">;
  json: boolean;
  /** The form's value: an id, a reference, an e-mail address or phone number, a number of days. */
  value: string;
  to: DestinationName | undefined;
  listState: LeadState | undefined;
  csvFilter: ExportFilter;
}

/** Read before the store is opened: a mistyped command is told its usage whether or not the database answers. */
export function readLeadsArguments(argv: string[]): LeadsArguments {
  const args = readArguments("leads", argv);
  if (!args) {
    const problem = optionProblem("leads", argv);
    console.error(problem ? `leads: ${problem}; ${usageLine("leads")}` : usageLine("leads"));
    process.exit(2);
  }
  const spam = args.switches.has("--spam");
  const state = args.options.get("--state");
  if (args.form === "csv") checkCsvArguments(spam, state);
  const [value = ""] = args.values;
  return {
    form: args.form,
    json: args.switches.has("--json"),
    value,
    to: args.options.get("--to") as DestinationName | undefined,
    listState: state as LeadState | undefined,
    csvFilter: { state: state ?? (spam ? "spam" : undefined), since: args.options.get("--since") },
  };
}

/** Stops when `--csv` is told two things at once or would write to a terminal. */
function checkCsvArguments(spam: boolean, state: string | undefined) {
  if (spam && state !== undefined && state !== "spam") {
    console.error(
      `leads: --spam exports the quarantine, whose leads are spam, not ${state}: give one of the two`,
    );
    process.exit(2);
  }
  // A terminal would run the escape sequences a visitor can put in a field, and rewrite the line ends.
  if (process.stdout.isTTY) {
    console.error(
      "leads: --csv writes a spreadsheet, not to a terminal: send it to a file, npm run -s leads -- --csv > leads.csv (with docker compose exec -T, docker exec without -t)",
    );
    process.exit(2);
  }
}
