// The spreadsheet export of `npm run leads -- --csv`: one row per lead, RFC 4180 with CRLF line
// ends and a UTF-8 byte-order mark first (without it Excel reads UTF-8 as a legacy code page and
// garbles Devanagari, Tamil and emoji).
import { Readable, type Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { stringify } from "csv-stringify";
import { DESTINATIONS } from "~/destinations/lookup.server";
import { leadReference } from "~/lead-parts/reference";
import { clickIdOf, describeSource } from "~/lead-parts/source";
import type { Lead } from "~/leads/lead";

interface Column {
  readonly header: string;
  readonly cell: (lead: Lead) => string;
}

/**
 * The characters a spreadsheet may start a formula with (OWASP's list, with their full-width
 * forms, which some read as the ASCII ones).
 */
const FORMULA_START = "=+\\-@\\t\\r\\uFF1D\\uFF0B\\uFF0D\\uFF20";

/**
 * Every place a spreadsheet may begin a cell inside a text: its start, and after a `;`, `,`,
 * tab or line break, where a spreadsheet splitting on another separator than this file's (`;`
 * in most European locales), or ignoring its quotes, begins a new cell. Where what follows
 * (after any spaces or double quotes, which a spreadsheet may drop) is a formula character, it
 * gets a `'`, so that cell is text too.
 */
const CELL_STARTING_A_FORMULA = new RegExp(`(?<=^|[;,\\t\\r\\n])(?=[ "]*[${FORMULA_START}])`, "g");

/**
 * A cell a spreadsheet must read as one text, whatever separator it splits on: quoted. So is
 * one the export marks as text with a leading `'`, for an import told to keep quoted cells as text.
 */
const QUOTED = new RegExp(`[;,\\n${FORMULA_START}]|^'`);

/** English month names and their short forms, which a spreadsheet reads in a date (`Jan 2`, `2 March 2026`). */
const MONTH =
  /\b(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b/gi;
/** What is left of a number, date, time, fraction, percentage or amount once its month names and AM/PM are taken out. */
const NUMBER_OR_DATE = /^[0-9 .,/:%+\-eE()$€£¥₹]*$/;

/**
 * Whether a spreadsheet would read the text as a value, not as written: a number (`0000123`
 * loses its zeros, `1e5` is 100000), a date or time (`01/02`, `Jan 2`, `10:30 pm`), a fraction,
 * a percentage, an amount, or TRUE/FALSE. Any text of digits and those signs counts.
 */
function readAsValue(value: string): boolean {
  if (/^ *(?:true|false) *$/i.test(value)) return true;
  if (!/[0-9]/.test(value)) return false;
  return NUMBER_OR_DATE.test(value.replace(MONTH, "").replace(/\b[ap]\.?m?\.?(?= |$)/gi, ""));
}

/**
 * A text the visitor wrote, made safe for a spreadsheet: no cell of it can start a formula, and
 * one a spreadsheet would read as a number or date starts with `'`, its mark for text.
 */
export function asSpreadsheetText(value: string): string {
  const neutralised = value.replace(CELL_STARTING_A_FORMULA, "'");
  return !neutralised.startsWith("'") && readAsValue(neutralised) ? `'${neutralised}` : neutralised;
}

/**
 * Digits a spreadsheet must keep as written (a phone's leading zero, all 12 digits of a
 * number it would show as 9.19877E+11): a leading `'`, the mark Excel, LibreOffice and Google
 * Sheets read as "this is text" (docs/operations.md). Empty stays empty.
 */
export function asSpreadsheetDigits(value: string): string {
  return value === "" ? "" : `'${asSpreadsheetText(value).replace(/^'/, "")}`;
}

export const CSV_COLUMNS: readonly Column[] = [
  { header: "id", cell: (lead) => lead.id },
  { header: "received", cell: (lead) => lead.receivedAt },
  { header: "state", cell: (lead) => lead.state },
  // Each destination's state; empty when the lead does not go there.
  ...DESTINATIONS.map((name) => ({
    header: name,
    cell: (lead: Lead) => lead.destinations[name]?.state ?? "",
  })),
  // What the visitor (or a campaign link) wrote: no cell of it can start a formula.
  { header: "name", cell: (lead) => asSpreadsheetText(lead.enquiry.name) },
  { header: "e-mail", cell: (lead) => asSpreadsheetText(lead.enquiry.email) },
  { header: "country code", cell: (lead) => asSpreadsheetDigits(lead.enquiry.countryCode) },
  { header: "phone", cell: (lead) => asSpreadsheetDigits(lead.enquiry.phoneNumber) },
  { header: "message", cell: (lead) => asSpreadsheetText(lead.enquiry.message) },
  { header: "source", cell: (lead) => asSpreadsheetText(describeSource(lead.source)) },
  { header: "click id", cell: (lead) => asSpreadsheetText(clickIdOf(lead.source)) },
  // Last, so the columns a spreadsheet of an earlier export refers to keep their places.
  { header: "reference", cell: (lead) => leadReference(lead.id) },
];

/**
 * Writes `leads` to `out` as CSV, a row at a time as `out` takes them (its backpressure): the next
 * lead is read only once its row is taken, so neither the leads nor the text of the whole export
 * are ever held at once; `out` is left open.
 */
export async function writeLeadsCsv(
  leads: Iterable<Lead> | AsyncIterable<Lead>,
  out: Writable,
): Promise<void> {
  const rows = async function* () {
    for await (const lead of leads) yield CSV_COLUMNS.map((column) => column.cell(lead));
  };
  const csv = stringify({
    bom: true,
    header: true,
    columns: CSV_COLUMNS.map((column) => column.header),
    record_delimiter: "\r\n",
    // Set by hand: csv-stringify stops quoting a lone LF or CR once the record delimiter is given,
    // and a message's own line breaks would then split its row.
    quote_record_delimiter: true,
    // OWASP's rules against formula injection: the cells are neutralised above (a ' wherever a
    // cell could start a formula, not only at its start), and a cell holding a separator or a
    // formula character anywhere is quoted, so a spreadsheet splitting on `,` keeps it whole.
    quoted_match: QUOTED,
  });
  await pipeline(Readable.from(rows()), csv, out, { end: false });
}
