/**
 * The build's publishing rule: an article or case study dated after the day the build publishes
 * for is left out of the site (its page, the lists, the feed, the sitemap) until a build on or
 * after its day. That day is `PUBLISH_DATE`, or today in `SITE_TIME_ZONE` (Asia/Kolkata): the
 * site's day starts at midnight there (docs/content-editing.md, "Articles dated in the future").
 */
import { dateField } from "~/content/collections/fields";
import type { LoadedContent, LoadedEntry } from "./load";

/** The site's time zone when `SITE_TIME_ZONE` is unset: the agency works from Bengaluru. */
export const DEFAULT_SITE_TIME_ZONE = "Asia/Kolkata";

/** The day the build publishes for, and where it came from (for the build's line). */
export interface PublishDay {
  date: string;
  timeZone: string;
  /** `PUBLISH_DATE` when it was set, else today in `timeZone`. */
  from: "PUBLISH_DATE" | "today";
}

/** The calendar day, `YYYY-MM-DD`, that `instant` falls on in `timeZone`. */
export function dayIn(timeZone: string, instant: Date): string {
  // en-CA writes dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(instant);
}

/** Whether `name` is a time zone this Node knows (an IANA name such as `Asia/Kolkata`, or `UTC`). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat("en-CA", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/**
 * The day the build publishes for, from the build's environment (`PUBLISH_DATE`, `SITE_TIME_ZONE`;
 * an empty one counts as unset, as a Docker build argument left out is), or the one line that
 * names the bad setting: a build must not guess which day it publishes.
 */
export function publishDayOf(
  env: Readonly<Record<string, string | undefined>>,
  now: Date,
): { ok: true; day: PublishDay } | { ok: false; message: string } {
  const timeZone = env.SITE_TIME_ZONE?.trim() || DEFAULT_SITE_TIME_ZONE;
  if (!isTimeZone(timeZone)) {
    return {
      ok: false,
      message: `SITE_TIME_ZONE "${timeZone}" is not a time zone: set an IANA name such as Asia/Kolkata or Europe/London, or leave it unset for ${DEFAULT_SITE_TIME_ZONE}`,
    };
  }
  const date = env.PUBLISH_DATE?.trim();
  if (!date) return { ok: true, day: { date: dayIn(timeZone, now), timeZone, from: "today" } };
  if (!dateField.safeParse(date).success) {
    return {
      ok: false,
      message: `PUBLISH_DATE "${date}" is not a calendar date YYYY-MM-DD: set one, or leave it unset for today in ${timeZone}`,
    };
  }
  return { ok: true, day: { date, timeZone, from: "PUBLISH_DATE" } };
}

/** The day an entry appears on the site: its `date`, for the collections whose entries carry one. */
export function dueDateOf(entry: LoadedEntry): string | undefined {
  return typeof entry.data.date === "string" ? entry.data.date : undefined;
}

/** Whether an entry is left out of a build for `publishDate`: it is dated after that day. */
export function isScheduled(entry: LoadedEntry, publishDate: string): boolean {
  const due = dueDateOf(entry);
  return due !== undefined && due > publishDate;
}

/**
 * The content a build for `publishDate` publishes (every entry but the scheduled ones, in the same
 * order), and the scheduled entries, soonest first.
 */
export function dueContent(
  content: LoadedContent,
  publishDate: string,
): { content: LoadedContent; scheduled: LoadedEntry[] } {
  const due = {} as LoadedContent;
  const scheduled: LoadedEntry[] = [];
  for (const [name, entries] of Object.entries(content) as [keyof LoadedContent, LoadedEntry[]][]) {
    due[name] = entries.filter((entry) => !isScheduled(entry, publishDate));
    scheduled.push(...entries.filter((entry) => isScheduled(entry, publishDate)));
  }
  scheduled.sort(
    (a, b) => (dueDateOf(a) ?? "").localeCompare(dueDateOf(b) ?? "") || a.file.localeCompare(b.file),
  );
  return { content: due, scheduled };
}

/**
 * The entries that became due after `after` up to `publishDate` (both `YYYY-MM-DD`): what a build
 * for `publishDate` publishes that a build for `after` left out, soonest first.
 */
export function becameDue(content: LoadedContent, after: string, publishDate: string): LoadedEntry[] {
  return dueContent(content, after).scheduled.filter((entry) => !isScheduled(entry, publishDate));
}
