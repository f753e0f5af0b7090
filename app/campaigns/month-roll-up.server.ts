/**
 * A month's roll-up in the data folder (`campaigns/<YYYY-MM>.json`): each compacted day of the
 * month summed as the report reads it, by campaign and by landing page, beside the identity of
 * the day's file it was made from. A report over a year reads a dozen of these instead of
 * hundreds of day files; a day whose file has changed since is read from its file again.
 * Why: docs/decisions/053-month-roll-ups.md.
 */
import { lstat } from "node:fs/promises";
import { join } from "node:path";
import { type CountRow, groupRows } from "~/campaigns/counts";
import { readRegularFile } from "~/leads/folder/data-files.server";
import { writeFileWhole } from "~/leads/folder/writes.server";

/** A month's file: `2026-11.json` (a day's is `2026-11-01.json`). */
export const MONTH_FILE = /^(\d{4}-(?:0[1-9]|1[0-2]))\.json$/;

/** One day as a roll-up keeps it. */
export interface RolledDay {
  /** The identity of the day's file the rows were made from (`fileIdentity`). */
  file: string;
  /** The day's rows by campaign (the landing page, click kind and host summed). */
  campaigns: CountRow[];
  /** The day's rows by landing page (the campaign summed). */
  routes: CountRow[];
}

export type RollUp = Map<string, RolledDay>;

/** How a row is written: its key's fields but the day, then its counters (~/campaigns/folder-store.server). */
export interface RowFormat {
  lineOf(row: CountRow): unknown[];
  rowOf(day: string, line: unknown): CountRow | null;
}

/** The month a day falls in. */
export const monthOf = (day: string) => day.slice(0, 7);

/**
 * A file's identity: its inode, size and time of change. A compaction writes a new file (a new
 * inode), so a day compacted again after a late event never matches its old roll-up.
 */
export async function fileIdentity(path: string): Promise<string | null> {
  const info = await lstat(path).catch(() => null);
  return info?.isFile() ? `${info.ino}:${info.size}:${info.mtimeMs}` : null;
}

/** `rows` of one day, rolled up as the report reads them. */
export function rollDay(day: string, file: string, rows: readonly CountRow[]): RolledDay {
  return { file, campaigns: groupRows(rows, "campaign-day", day), routes: groupRows(rows, "route", day) };
}

/** The month's roll-up in `folder`: null when there is none, or it is not one (then it is made again). */
export async function readRollUp(folder: string, month: string, format: RowFormat): Promise<RollUp | null> {
  try {
    const text = await readRegularFile(join(folder, `${month}.json`));
    if (text === null) return null;
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed !== "object" || parsed === null) return null;
    const rollUp: RollUp = new Map();
    for (const [day, value] of Object.entries(parsed)) {
      const rolled = rolledDayOf(day, month, value, format);
      if (!rolled) return null;
      rollUp.set(day, rolled);
    }
    return rollUp;
  } catch {
    return null;
  }
}

function rolledDayOf(day: string, month: string, value: unknown, format: RowFormat): RolledDay | null {
  if (monthOf(day) !== month || typeof value !== "object" || value === null) return null;
  const { file, campaigns, routes } = value as Record<string, unknown>;
  if (typeof file !== "string" || !Array.isArray(campaigns) || !Array.isArray(routes)) return null;
  const rowsOf = (lines: unknown[]) => lines.map((line) => format.rowOf(day, line));
  const rolled = { file, campaigns: rowsOf(campaigns), routes: rowsOf(routes) };
  if ([...rolled.campaigns, ...rolled.routes].includes(null)) return null;
  return rolled as RolledDay;
}

/** Writes the month's roll-up whole or not at all (~/leads/folder/writes.server: writeFileWhole). */
export async function writeRollUp(folder: string, month: string, rollUp: RollUp, format: RowFormat) {
  const days = Object.fromEntries(
    [...rollUp]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([day, rolled]) => [
        day,
        {
          file: rolled.file,
          campaigns: rolled.campaigns.map(format.lineOf),
          routes: rolled.routes.map(format.lineOf),
        },
      ]),
  );
  await writeFileWhole(folder, `${month}.json`, JSON.stringify(days));
}
