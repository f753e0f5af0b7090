// The spreadsheet export of `npm run leads -- --csv`: one row per lead, RFC 4180 with CRLF line
// ends and a UTF-8 byte-order mark first (without it Excel reads UTF-8 as a legacy code page and
// garbles Devanagari, Tamil and emoji).
import { Readable, type Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { stringify } from "csv-stringify";
import { DESTINATIONS } from "~/destinations/destination";
import { clickIdOf, describeSource } from "~/lead-parts/source";
import type { Lead } from "~/leads/lead";

interface Column {
  readonly header: string;
  readonly cell: (lead: Lead) => string;
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
  { header: "name", cell: (lead) => lead.enquiry.name },
  { header: "e-mail", cell: (lead) => lead.enquiry.email },
  { header: "country code", cell: (lead) => lead.enquiry.countryCode },
  { header: "phone", cell: (lead) => lead.enquiry.phoneNumber },
  { header: "message", cell: (lead) => lead.enquiry.message },
  { header: "source", cell: (lead) => describeSource(lead.source) },
  { header: "click id", cell: (lead) => clickIdOf(lead.source) },
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
    // OWASP's rule against formula injection: a text cell that starts with = + - @, a tab or a
    // carriage return (or their full-width forms) gets a leading ', so a spreadsheet shows it
    // as text instead of running it. The visitor wrote these fields.
    escape_formulas: true,
  });
  await pipeline(Readable.from(rows()), csv, out, { end: false });
}
