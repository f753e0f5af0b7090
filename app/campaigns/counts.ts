/**
 * The campaign counts: what one day keeps per landing page and campaign (visits, enquiries,
 * quarantined enquiries, WhatsApp taps, landings over their limit), and the days they fall on.
 * Why counts and not records: docs/decisions/050-campaign-counts.md.
 */
import type { CampaignFields } from "~/lead-parts/campaign-fields";

export const COUNTERS = ["visits", "enquiries", "spam", "whatsappTaps", "droppedVisits"] as const;
export type Counter = (typeof COUNTERS)[number];

/** How long counts are kept: more than a year, so a month compares with the same month a year before. */
export const RETENTION_DAYS = 400;

/** A day, `YYYY-MM-DD`, in REPORT_TIME_ZONE. */
export const DAY = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/** Where a count belongs: its day, its landing page's route (null: not known) and its campaign. */
export interface CountKey extends CampaignFields {
  day: string;
  route: string | null;
}

/** One event to count once. */
export interface CountEvent extends CountKey {
  counter: Counter;
}

/** What a store holds for one key. */
export type CountRow = CountKey & Record<Counter, number>;

/** The key's fields in a fixed order: what stores and groupings compare. */
export const KEY_FIELDS = ["day", "route", "source", "medium", "campaign", "click", "host"] as const;

/** One string per key: its fields joined by a character no field holds (a null as another). */
const keyOf = (key: CountKey) => KEY_FIELDS.map((field) => key[field] ?? "\u0001").join("\u0000");

/** A row of nothing yet for `key`. */
export function emptyRow(key: CountKey): CountRow {
  const { day, route, source, medium, campaign, click, host } = key;
  return {
    day,
    route,
    source,
    medium,
    campaign,
    click,
    host,
    visits: 0,
    enquiries: 0,
    spam: 0,
    whatsappTaps: 0,
    droppedVisits: 0,
  };
}

/** The rows `events` make, one per key, each event counted once. */
export function rowsOf(events: readonly CountEvent[]): CountRow[] {
  const rows = new Map<string, CountRow>();
  for (const event of events) {
    const id = keyOf(event);
    const row = rows.get(id) ?? emptyRow(event);
    row[event.counter] += 1;
    rows.set(id, row);
  }
  return [...rows.values()];
}

/** `rows` with the rows of one key added together. */
export function sumRows(rows: readonly CountRow[]): CountRow[] {
  const summed = new Map<string, CountRow>();
  for (const row of rows) {
    const id = keyOf(row);
    const total = summed.get(id) ?? emptyRow(row);
    for (const counter of COUNTERS) total[counter] += row[counter];
    summed.set(id, total);
  }
  return [...summed.values()];
}

/**
 * What a read sums over: `all` keeps every key; `campaign-day` the day and the campaign's tags
 * (the landing page, the click's kind and the host summed); `route` the landing page alone (the
 * days summed, the row dated with the period's first day).
 */
export type Grouping = "all" | "campaign-day" | "route";

/** `rows` of the days from `since`, summed as `by` says. */
export function groupRows(rows: readonly CountRow[], by: Grouping, since: string): CountRow[] {
  if (by === "all") return [...rows];
  return sumRows(
    rows.map((row) =>
      by === "route"
        ? { ...row, day: since, source: null, medium: null, campaign: null, click: null, host: null }
        : { ...row, route: null, click: null, host: null },
    ),
  );
}

/**
 * The day each time zone was last asked for, by the minute it was asked in: formatting costs more
 * than the rest of counting a beacon, and a day (in any zone in use) changes on a minute.
 */
const lastDays = new Map<string, { format: Intl.DateTimeFormat; minute: number; day: string }>();

/** The day `at` falls on in `timeZone`. */
export function dayIn(at: Date, timeZone: string): string {
  const minute = Math.floor(at.getTime() / 60_000);
  let last = lastDays.get(timeZone);
  if (last?.minute === minute) return last.day;
  // en-CA writes dates as YYYY-MM-DD.
  const format =
    last?.format ??
    new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
  last = { format, minute, day: format.format(at) };
  lastDays.set(timeZone, last);
  return last.day;
}

/** `day` moved by `count` days (negative: back). */
export function addDays(day: string, count: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + count);
  return date.toISOString().slice(0, 10);
}

/** The days from `since` to `until`, both included. */
export function daysBetween(since: string, until: string): string[] {
  const days: string[] = [];
  for (let day = since; day <= until; day = addDays(day, 1)) days.push(day);
  return days;
}

/** Whether `text` is a real calendar day (`2026-02-30` is not). */
export function isDay(text: string): boolean {
  return DAY.test(text) && addDays(text, 0) === text;
}
