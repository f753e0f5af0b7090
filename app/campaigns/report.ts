/**
 * The campaign report: a period's counts per campaign and per landing page, the rate of
 * enquiries to visits, and the change from the period before; as text, JSON and CSV.
 */
import { stringify } from "csv-stringify/sync";
import { addDays, type CountRow, daysBetween } from "~/campaigns/counts";
import { asSpreadsheetText } from "~/leads/operations/leads-csv";

/** A campaign as the report names it: a visit with no tags has null ones. */
export interface CampaignName {
  source: string | null;
  medium: string | null;
  campaign: string | null;
}

export interface CampaignLine extends CampaignName {
  visits: number;
  enquiries: number;
  /** Enquiries ÷ visits (it may exceed 1: an enquiry from a visit that was not counted); null with no visits. */
  rate: number | null;
  whatsappTaps: number;
}

export interface PageLine {
  /** The landing page's route (`/insights/:slug`); null for enquiries whose landing is not known. */
  route: string | null;
  visits: number;
  enquiries: number;
  rate: number | null;
}

/** What `--json` prints. */
export interface Report {
  since: string;
  until: string;
  campaigns: CampaignLine[];
  pages: PageLine[];
}

/** The report with what the other forms show besides: the period before, the quarantine, the dropped landings, each day. */
export interface FullReport extends Report {
  previous: Report;
  /** Enquiries the filters quarantined in the period: never counted as enquiries. */
  spam: number;
  /** Landing reports over their limit, not counted as visits. */
  droppedVisits: number;
  /** Each campaign's visits and enquiries per day of the period, for the chart. */
  daily: { campaign: CampaignName; days: { day: string; visits: number; enquiries: number }[] }[];
}

/** Enquiries ÷ visits to four places; null without visits. */
export function rateOf(enquiries: number, visits: number): number | null {
  return visits === 0 ? null : Math.round((enquiries / visits) * 10_000) / 10_000;
}

const campaignId = (row: CampaignName) => JSON.stringify([row.source, row.medium, row.campaign]);

/** Most enquiries first, then most visits, then by name. */
const byWeight =
  <T extends { enquiries: number; visits: number }>(name: (line: T) => string) =>
  (a: T, b: T) =>
    b.enquiries - a.enquiries || b.visits - a.visits || name(a).localeCompare(name(b));

/**
 * The report over the days from `since` to `until`: its campaigns from `rows`, its landing pages
 * from `pageRows` (rows that keep the route; the same rows when they keep everything).
 */
export function summarise(
  rows: readonly CountRow[],
  since: string,
  until: string,
  pageRows: readonly CountRow[] = rows,
): Report {
  const inPeriod = (from: readonly CountRow[]) => from.filter((row) => row.day >= since && row.day <= until);
  const campaigns = new Map<string, CampaignLine>();
  const pages = new Map<string, PageLine>();
  for (const row of inPeriod(rows)) {
    if (row.visits + row.enquiries + row.whatsappTaps === 0) continue;
    const id = campaignId(row);
    const line = campaigns.get(id) ?? {
      source: row.source,
      medium: row.medium,
      campaign: row.campaign,
      visits: 0,
      enquiries: 0,
      rate: null,
      whatsappTaps: 0,
    };
    line.visits += row.visits;
    line.enquiries += row.enquiries;
    line.whatsappTaps += row.whatsappTaps;
    campaigns.set(id, line);
  }
  for (const row of inPeriod(pageRows)) {
    if (row.visits + row.enquiries === 0) continue;
    const page = pages.get(String(row.route)) ?? { route: row.route, visits: 0, enquiries: 0, rate: null };
    page.visits += row.visits;
    page.enquiries += row.enquiries;
    pages.set(String(row.route), page);
  }
  for (const line of [...campaigns.values(), ...pages.values()])
    line.rate = rateOf(line.enquiries, line.visits);
  return {
    since,
    until,
    campaigns: [...campaigns.values()].sort(byWeight<CampaignLine>(campaignLabel)),
    pages: [...pages.values()].sort(byWeight<PageLine>((page) => page.route ?? "")),
  };
}

/** The period before `since`…`until`, of the same length. */
export function periodBefore(since: string, until: string): { since: string; until: string } {
  const length = daysBetween(since, until).length;
  return { since: addDays(since, -length), until: addDays(since, -1) };
}

/** What a full report reads: campaign rows by day of the period and the one before, landing-page rows of each. */
export interface ReportRows {
  campaignDays: readonly CountRow[];
  pages: readonly CountRow[];
  previousPages: readonly CountRow[];
}

/** The report of `since`…`until`; `rows` holds that period and the one before. */
export function fullReport(
  input: ReportRows | readonly CountRow[],
  since: string,
  until: string,
): FullReport {
  const {
    campaignDays: rows,
    pages,
    previousPages,
  } = "campaignDays" in input ? input : { campaignDays: input, pages: input, previousPages: input };
  const report = summarise(rows, since, until, pages);
  const before = periodBefore(since, until);
  const days = daysBetween(since, until);
  const dayIndex = new Map(days.map((day, index) => [day, index]));
  // Each campaign's days, filled in one pass over the rows.
  const daily = new Map(
    report.campaigns.map((line) => [
      campaignId(line),
      {
        campaign: { source: line.source, medium: line.medium, campaign: line.campaign },
        days: days.map((day) => ({ day, visits: 0, enquiries: 0 })),
      },
    ]),
  );
  let spam = 0;
  let droppedVisits = 0;
  for (const row of rows) {
    const index = dayIndex.get(row.day);
    if (index === undefined) continue;
    spam += row.spam;
    droppedVisits += row.droppedVisits;
    const day = daily.get(campaignId(row))?.days[index];
    if (!day) continue;
    day.visits += row.visits;
    day.enquiries += row.enquiries;
  }
  return {
    ...report,
    previous: summarise(rows, before.since, before.until, previousPages),
    spam,
    droppedVisits,
    daily: [...daily.values()],
  };
}

/** What `--json` prints: exactly the shape. */
export function reportJson({ since, until, campaigns, pages }: Report): string {
  return JSON.stringify({ since, until, campaigns, pages }, null, 2);
}

/** `newsletter / email / october`; `(no campaign)` for a visit with no tags. */
export function campaignLabel(name: CampaignName): string {
  const parts = [name.source, name.medium, name.campaign];
  if (parts.every((part) => part === null)) return "(no campaign)";
  return parts.map((part) => part ?? "–").join(" / ");
}

/** A page's label: its route, or `(not known)`. */
export const pageLabel = (page: PageLine) => page.route ?? "(not known)";

/** A rate as people read it: `2.1 %`, or `–`. */
export function percent(rate: number | null): string {
  return rate === null ? "–" : `${(rate * 100).toFixed(1)} %`;
}

/** `+3`, `−2`, `0`, or `new` when there was nothing before. */
export function change(now: number, before: number | undefined): string {
  if (before === undefined) return now === 0 ? "0" : "new";
  const delta = now - before;
  return delta > 0 ? `+${delta}` : delta < 0 ? `−${-delta}` : "0";
}

/** The report as aligned text tables, with the change from the period before. */
export function reportText(report: FullReport): string {
  const before = new Map(report.previous.campaigns.map((line) => [campaignId(line), line]));
  const pagesBefore = new Map(report.previous.pages.map((line) => [String(line.route), line]));
  const campaignRows = report.campaigns.map((line) => {
    const earlier = before.get(campaignId(line));
    return [
      campaignLabel(line),
      String(line.visits),
      String(line.enquiries),
      percent(line.rate),
      String(line.whatsappTaps),
      `${change(line.visits, earlier?.visits)} / ${change(line.enquiries, earlier?.enquiries)}`,
    ];
  });
  const pageRows = report.pages.map((line) => {
    const earlier = pagesBefore.get(String(line.route));
    return [
      pageLabel(line),
      String(line.visits),
      String(line.enquiries),
      percent(line.rate),
      `${change(line.visits, earlier?.visits)} / ${change(line.enquiries, earlier?.enquiries)}`,
    ];
  });
  const lines = [
    `Campaigns from ${report.since} to ${report.until}; change from ${report.previous.since} to ${report.previous.until} (visits / enquiries)`,
    "",
    ...table(
      ["campaign (source / medium / campaign)", "visits", "enquiries", "rate", "WhatsApp taps", "change"],
      campaignRows,
    ),
    "",
    ...table(["landing page", "visits", "enquiries", "rate", "change"], pageRows),
    "",
    `Quarantined enquiries (not counted above): ${report.spam}`,
    `Landing reports over their limit (not counted as visits): ${report.droppedVisits}`,
    "Visits are counted from the page's own script: a visit without JavaScript, or with Global Privacy Control or Do Not Track, is not counted; enquiries always are.",
  ];
  return lines.join("\n");
}

function table(head: string[], rows: string[][]): string[] {
  if (rows.length === 0) return [head[0] ?? "", "(none)"];
  const widths = head.map((cell, index) =>
    Math.max(cell.length, ...rows.map((row) => (row[index] ?? "").length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, index) =>
        index === 0 ? cell.padEnd(widths[index] ?? 0) : cell.padStart(widths[index] ?? 0),
      )
      .join("  ")
      .trimEnd();
  return [line(head), widths.map((width) => "-".repeat(width)).join("  "), ...rows.map(line)];
}

/** The report for a spreadsheet: one table, a `kind` column telling campaigns from landing pages. */
export function reportCsv(report: Report): string {
  const rows = [
    ...report.campaigns.map((line) => ({
      kind: "campaign",
      source: line.source ?? "",
      medium: line.medium ?? "",
      campaign: line.campaign ?? "",
      route: "",
      visits: line.visits,
      enquiries: line.enquiries,
      rate: line.rate ?? "",
      whatsappTaps: line.whatsappTaps,
    })),
    ...report.pages.map((line) => ({
      kind: "page",
      source: "",
      medium: "",
      campaign: "",
      route: line.route ?? "",
      visits: line.visits,
      enquiries: line.enquiries,
      rate: line.rate ?? "",
      whatsappTaps: "",
    })),
  ];
  return stringify(rows, {
    header: true,
    columns: ["kind", "source", "medium", "campaign", "route", "visits", "enquiries", "rate", "whatsappTaps"],
    // A tag is whatever a link said: never a formula, never a number or date (as in the leads' CSV).
    cast: { string: asSpreadsheetText },
  });
}
