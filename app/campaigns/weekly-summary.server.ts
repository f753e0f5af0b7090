/**
 * The week's campaign summary in the team chat: posted once at REPORT_WEEKLY's day and hour (in
 * REPORT_TIME_ZONE), whichever replica comes first, with the week's visits, enquiries and rate and
 * the top campaigns.
 */
import { mkdir, open } from "node:fs/promises";
import { join } from "node:path";
import { addDays } from "~/campaigns/counts";
import { campaignLabel, percent, rateOf, summarise } from "~/campaigns/report";
import type { CampaignCountStore } from "~/campaigns/store.server";
import type { Database } from "~/db/database.server";

/** How often a server looks whether the week's summary is due. */
export const SUMMARY_CHECK_MS = 10 * 60 * 1000;
/** A summary not posted within a day of its time (every server was down) is skipped, not posted late. */
const POST_WITHIN_DAYS = 1;
/** The campaigns a summary names. */
const TOP = 5;

export interface WeeklyTime {
  /** 0 is Sunday. */
  day: number;
  hour: number;
  minute: number;
}

/** The local day, weekday and minutes of `at` in `timeZone`. */
function localTime(at: Date, timeZone: string) {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      weekday: "short",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    })
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
  return {
    day: `${parts.year}-${parts.month}-${parts.day}`,
    weekday: ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"].indexOf(parts.weekday ?? ""),
    minutes: Number(parts.hour) * 60 + Number(parts.minute),
  };
}

/**
 * The summary due at `at`: the day of its most recent posting time (its key), and the week it
 * covers, the seven days before; null when that time is more than POST_WITHIN_DAYS ago.
 */
export function dueSummary(
  at: Date,
  when: WeeklyTime,
  timeZone: string,
): { week: string; since: string; until: string } | null {
  const now = localTime(at, timeZone);
  const wanted = when.hour * 60 + when.minute;
  let back = (now.weekday - when.day + 7) % 7;
  if (back === 0 && now.minutes < wanted) back = 7;
  const elapsed = back * 24 * 60 + now.minutes - wanted;
  if (elapsed >= POST_WITHIN_DAYS * 24 * 60) return null;
  const week = addDays(now.day, -back);
  return { week, since: addDays(week, -7), until: addDays(week, -1) };
}

/** The summary's text: the week's totals, then the top campaigns by enquiries. */
export function summaryText(report: ReturnType<typeof summarise>): string {
  const visits = report.campaigns.reduce((sum, line) => sum + line.visits, 0);
  const enquiries = report.campaigns.reduce((sum, line) => sum + line.enquiries, 0);
  const lines = [
    `Campaigns, ${report.since} to ${report.until}: ${visits} visits, ${enquiries} enquiries (${percent(rateOf(enquiries, visits))}).`,
    ...report.campaigns
      .slice(0, TOP)
      .map(
        (line, index) =>
          `${index + 1}. ${campaignLabel(line)}: ${line.visits} visits, ${line.enquiries} enquiries (${percent(line.rate)}), ${line.whatsappTaps} WhatsApp taps`,
      ),
    "npm run report has the rest.",
  ];
  return lines.join("\n");
}

/**
 * Looks every SUMMARY_CHECK_MS whether the week's summary is due, and posts it once: with a
 * database, the replica whose insert of the week's row commits posts it (PostgreSQL's primary
 * key decides, whatever the clocks say); without one, this server's marker file, created
 * exclusively in the counts' folder, does.
 */
export function createWeeklySummary(options: {
  when: WeeklyTime | null;
  timeZone: string;
  store: CampaignCountStore;
  post: (text: string) => void;
  database: Database | null;
  folder: string;
  now?: () => Date;
  log?: (line: string) => void;
}): { start(): void; check(): Promise<void>; stop(): void } {
  const {
    when,
    timeZone,
    store,
    post,
    database,
    folder,
    now = () => new Date(),
    log = console.error,
  } = options;
  const claim = async (week: string): Promise<boolean> => {
    if (database) {
      const { rowCount } = await database.query(
        "INSERT INTO campaign_summaries (week, posted_at) VALUES ($1, now()) ON CONFLICT (week) DO NOTHING",
        [week],
      );
      return rowCount === 1;
    }
    try {
      await mkdir(folder, { recursive: true, mode: 0o700 });
      const marker = await open(join(folder, `summary-${week}.posted`), "wx", 0o600);
      await marker.close();
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
      throw error;
    }
  };
  const check = async () => {
    if (!when) return;
    const due = dueSummary(now(), when, timeZone);
    if (!due) return;
    try {
      // Read before the claim: a store that cannot be read leaves the week for the next look.
      const rows = await store.read(due.since, due.until, "campaign-day");
      if (!(await claim(due.week))) return;
      post(summaryText(summarise(rows, due.since, due.until)));
    } catch (error) {
      log(
        `campaigns: cannot post the week's summary yet (${error instanceof Error ? error.message : String(error)}); it is tried again in ${SUMMARY_CHECK_MS / 60_000} minutes`,
      );
    }
  };
  let timer: NodeJS.Timeout | undefined;
  return {
    start() {
      if (when) timer = setInterval(() => void check(), SUMMARY_CHECK_MS).unref();
    },
    check,
    stop: () => clearInterval(timer),
  };
}
