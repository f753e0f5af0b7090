import { PassThrough } from "node:stream";
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import type { Enquiry } from "~/lead-parts/enquiry";
import { type Lead, newLead } from "~/leads/lead";
import { asSpreadsheetText, writeLeadsCsv } from "~/leads/operations/leads-csv";

// The export as a spreadsheet would read it: split on this file's `,` with its quotes, and also
// split on another separator (`;` in most European locales, a tab) with no regard for them,
// which is how a row read with the wrong separator falls apart into cells.

const AT = "2026-11-01T10:00:00.000Z";

function leadOf(enquiry: Partial<Enquiry>, index: number): Lead {
  return newLead({
    id: `0b6f2a1e-5c3d-4e8f-9a7b-1c2d3e4f5a${String(index).padStart(2, "0")}`,
    enquiry: {
      name: "Asha Rao",
      email: "asha@example.in",
      countryCode: "91",
      phoneNumber: "9876543210",
      message: "A booking app",
      ...enquiry,
    },
    destinations: [],
    at: new Date(AT),
  });
}

async function exportOf(enquiries: Partial<Enquiry>[]): Promise<string> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on("data", (chunk: Buffer) => chunks.push(chunk));
  await writeLeadsCsv(
    enquiries.map((enquiry, index) => leadOf(enquiry, index)),
    out,
  );
  return Buffer.concat(chunks).toString("utf8");
}

/** The cells of the named columns, read with the file's own separator and quotes. */
function cellsOf(csv: string, columns: string[]): string[][] {
  const [header, ...rows] = parse(csv, { bom: true }) as string[][];
  const at = columns.map((column) => header?.indexOf(column) ?? -1);
  return rows.map((row) => at.map((index) => row[index] ?? "(missing)"));
}

/** Hostile texts a visitor could send: formulas after a separator, a line break, a quote or spaces. */
const HOSTILE: Partial<Enquiry>[] = [
  { name: "a;=1+1", message: "fine; -2+3; @SUM(A1:A9)" },
  { name: 'x;"=HYPERLINK(""http://x.example"")', message: "one,=2\n=3\r+4\t@5" },
  { name: "b;  =1+1", message: "a ,\t ;\"  +cmd|' /C calc'!A0" },
  { name: "ｃ;＝1+1", message: "full width: ＋1；－2,＠3" },
  { name: "=1+1", email: "-x@example.in", message: "\t\r\n=1" },
];

const FORMULA = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

describe("the CSV export against formula injection", () => {
  for (const separator of [";", "\t", ","]) {
    it(`leaves no cell that starts a formula when a spreadsheet splits on ${JSON.stringify(separator)}, quotes or not`, async () => {
      const csv = await exportOf(HOSTILE);
      const fragments = csv.replace(/^\uFEFF/, "").split(new RegExp(`[${separator}\\r\\n]`));
      // What a spreadsheet may drop before it looks: spaces and the quotes of a quoted cell.
      const starting = fragments
        .map((fragment) => fragment.replace(/^[ "]*/, ""))
        .filter((cell) => FORMULA.test(cell));
      expect(starting).toEqual([]);
    });
  }

  it("quotes a cell holding a ; , or formula character anywhere, and puts a ' wherever a cell could start one", async () => {
    const csv = await exportOf([
      { name: "a;=1+1", message: "ok; -2, @3 and 4-5=6" },
      { name: "Meera Iyer", message: "plain" },
    ]);
    expect(csv).toContain(`,"a;'=1+1",`);
    expect(csv).toContain(`,"ok;' -2,' @3 and 4-5=6",`);
    expect(csv).toContain(",Meera Iyer,");
    expect(cellsOf(csv, ["name", "message"])).toEqual([
      ["a;'=1+1", "ok;' -2,' @3 and 4-5=6"],
      ["Meera Iyer", "plain"],
    ]);
  });

  it("keeps phones and country codes as text, leading zeros and every digit", async () => {
    const csv = await exportOf([
      { countryCode: "91", phoneNumber: "09876543210" },
      { countryCode: "+44", phoneNumber: "919876543210" },
      { countryCode: "0091", phoneNumber: "" },
    ]);
    expect(cellsOf(csv, ["country code", "phone"])).toEqual([
      ["'91", "'09876543210"],
      ["'+44", "'919876543210"],
      ["'0091", ""],
    ]);
  });

  it("marks as text, with a leading ' and quotes, a cell a spreadsheet would read as a number, date or boolean", async () => {
    const csv = await exportOf([
      { name: "0000123", message: "1e5" },
      { name: "01/02", message: "Jan 2" },
      { name: "1 1/2", message: "10:30 pm" },
      { name: "TRUE", message: "12%" },
    ]);
    expect(csv).toContain(`,"'0000123",`);
    expect(csv).toContain(`,"'1e5",`);
    expect(cellsOf(csv, ["name", "message"])).toEqual([
      ["'0000123", "'1e5"],
      ["'01/02", "'Jan 2"],
      ["'1 1/2", "'10:30 pm"],
      ["'TRUE", "'12%"],
    ]);
  });
});

describe("a visitor's text as a spreadsheet cell", () => {
  it("gets one ' when a spreadsheet would read it as a value, and none otherwise", () => {
    for (const value of [
      "0000123",
      "1e5",
      "01/02",
      "2026-01-05",
      "2 March 2026",
      "₹500",
      "(123)",
      "1,5",
      "false",
    ]) {
      expect(asSpreadsheetText(value), value).toBe(`'${value}`);
    }
    // A formula character first already gives the cell its '.
    expect(asSpreadsheetText("-5")).toBe("'-5");
    expect(asSpreadsheetText("+91 98765")).toBe("'+91 98765");
    for (const value of ["Meera Iyer", "May", "3 pages", "Asha 2", "Need an app by 01/02", "", "O'Brien"]) {
      expect(asSpreadsheetText(value), value).toBe(value);
    }
  });

  it("reads a long message in one pass", () => {
    const long = `${"1 ".repeat(100_000)}x`;
    expect(asSpreadsheetText(long)).toBe(long);
  });
});
