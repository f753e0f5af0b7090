/**
 * The campaign counts in the data folder: `campaigns/<day>.log`, one line per event appended and
 * fsync'd, compacted once the day is over into `campaigns/<day>.json`, its rows summed, and the
 * compacted days of a month rolled up as the report reads them into `campaigns/<YYYY-MM>.json`.
 */
import type { Dirent } from "node:fs";
import { readdir, unlink } from "node:fs/promises";
import { join } from "node:path";
import {
  addDays,
  COUNTERS,
  type CountEvent,
  type Counter,
  type CountRow,
  groupRows,
  KEY_FIELDS,
  RETENTION_DAYS,
  rowsOf,
  sumRows,
} from "~/campaigns/counts";
import {
  fileIdentity,
  MONTH_FILE,
  monthOf,
  type RolledDay,
  type RollUp,
  type RowFormat,
  readRollUp,
  rollDay,
  writeRollUp,
} from "~/campaigns/month-roll-up.server";
import type { CampaignCountStore } from "~/campaigns/store.server";
import { appendLines, openForAppend, readRegularFile } from "~/leads/folder/data-files.server";
import { writeFileWhole } from "~/leads/folder/writes.server";

/** A day's file: its log of events, or its compacted rows. */
const DAY_FILE = /^(\d{4}-\d{2}-\d{2})\.(log|json)$/;
/** A day's log stops taking events at this size (about 200,000 events): counts stay bounded whatever comes. */
export const MAX_DAY_LOG_BYTES = 32 * 1024 * 1024;

/** Where the counts live inside ENQUIRY_STORE_DIR. */
export function campaignsFolder(storeDir: string): string {
  return join(storeDir, "campaigns");
}

/** One logged event: its key's fields (day aside, in KEY_FIELDS' order) and its counter. */
type LogLine = [
  string | null,
  string | null,
  string | null,
  string | null,
  string | null,
  string | null,
  Counter,
];

export function createFolderCampaignStore(options: {
  folder: string;
  log?: (line: string) => void;
}): CampaignCountStore {
  const { folder, log = console.error } = options;
  let failing = false;
  let full = "";
  let tail: Promise<unknown> = Promise.resolve();
  /** The write not begun yet, which new events join. */
  let waiting: { events: CountEvent[]; written: Promise<boolean> } | null = null;
  /** Appends and compactions one at a time, so no event lands in a log being compacted. */
  const serial = <T>(task: () => Promise<T>): Promise<T> => {
    const run = tail.then(task);
    tail = run.catch(() => {});
    return run;
  };

  const append = async (day: string, events: readonly CountEvent[]) => {
    const name = `${day}.log`;
    const lines = events.map((event) => {
      const line: LogLine = [
        event.route,
        event.source,
        event.medium,
        event.campaign,
        event.click,
        event.host,
        event.counter,
      ];
      return `${JSON.stringify(line)}\n`;
    });
    const { handle, size } = await openForAppend(folder, name);
    try {
      if (size >= MAX_DAY_LOG_BYTES) {
        if (full !== day)
          log(
            `campaigns: ${join(folder, name)} holds ${MAX_DAY_LOG_BYTES} bytes, a day's limit; the day's further events are not counted`,
          );
        full = day;
        return;
      }
      await appendLines(handle, size, lines.join(""));
    } finally {
      await handle.close();
    }
  };

  /** Files as last read, by their identity: a report reads a day, a log or a month more than once. */
  const known = <T>(limit: number) => {
    const entries = new Map<string, { file: string; value: Promise<T> }>();
    return async (key: string, path: string, read: (file: string) => Promise<T>): Promise<T | null> => {
      const file = await fileIdentity(path);
      if (file === null) return null;
      const entry = entries.get(key);
      if (entry?.file === file) return entry.value;
      const value = read(file);
      entries.delete(key);
      entries.set(key, { file, value });
      // The oldest read goes first: the server keeps a few days, never a year of rows.
      for (const oldest of entries.keys()) {
        if (entries.size <= limit) break;
        entries.delete(oldest);
      }
      value.catch(() => entries.get(key)?.value === value && entries.delete(key));
      return value;
    };
  };
  const knownLogs = known<CountEvent[]>(4);
  const knownDays = known<{ file: string; rows: CountRow[] }>(64);
  const knownMonths = known<RollUp | null>(32);

  /** The events of `day`'s log, each line read alone: one that is no event (a torn last line) is skipped. */
  const readLog = async (day: string): Promise<CountEvent[]> =>
    (await knownLogs(day, join(folder, `${day}.log`), async () => {
      const text = await readRegularFile(join(folder, `${day}.log`));
      return (text ?? "").split("\n").flatMap((line) => eventOf(day, line) ?? []);
    })) ?? [];

  /** `day`'s compacted rows and the identity of the file they were read from (none: no such file). */
  const readRows = async (day: string): Promise<{ file: string | null; rows: CountRow[] }> =>
    (await knownDays(day, join(folder, `${day}.json`), async (file) => ({
      file,
      rows: await parseRows(day, join(folder, `${day}.json`)),
    }))) ?? { file: null, rows: [] };

  const parseRows = async (day: string, path: string): Promise<CountRow[]> => {
    const text = await readRegularFile(path);
    if (text === null) return [];
    try {
      const rows = JSON.parse(text) as unknown;
      if (Array.isArray(rows)) return rows.flatMap((line) => rowOf(day, line) ?? []);
    } catch {
      // Said below: the file is not rows.
    }
    log(`campaigns: ${path} is not a day's counts; its day reads as empty: restore it or delete it`);
    return [];
  };

  const readDay = async (day: string) =>
    sumRows([...(await readRows(day)).rows, ...rowsOf(await readLog(day))]);

  /** The month's roll-up (~/campaigns/month-roll-up.server); null when it has none or it is not one. */
  const readMonth = async (month: string): Promise<RollUp | null> =>
    knownMonths(month, join(folder, `${month}.json`), () => readRollUp(folder, month, ROW_FORMAT));

  /** `day` as its month's roll-up has it, when made from the day's file as it is now. */
  const rolledDay = async (day: string): Promise<RolledDay | null> => {
    const [file, rollUp] = await Promise.all([
      fileIdentity(join(folder, `${day}.json`)),
      readMonth(monthOf(day)),
    ]);
    const rolled = rollUp?.get(day);
    return rolled && rolled.file === file ? rolled : null;
  };

  /** Writes `day`'s rows to its `.json` whole (~/leads/folder/writes.server: writeFileWhole), then removes its log. */
  const compact = async (day: string) => {
    const rows = await readDay(day);
    await writeFileWhole(folder, `${day}.json`, JSON.stringify(rows.map(lineOf)));
    await unlink(join(folder, `${day}.log`));
  };

  /**
   * Makes each month's roll-up of its compacted days again where a day's file has changed, is
   * new or is gone (a day with a log is left out: it may still change); removes a month's once
   * none of its days is kept.
   */
  const rollUpMonths = async () => {
    const files = await folderFiles(folder);
    const logged = new Set(files.days.filter(({ kind }) => kind === "log").map(({ day }) => day));
    const months = new Map<string, string[]>();
    for (const { day, kind } of files.days)
      if (kind === "json" && !logged.has(day))
        months.set(monthOf(day), [...(months.get(monthOf(day)) ?? []), day]);
    for (const month of files.months) {
      if (months.has(month)) continue;
      await unlink(join(folder, `${month}.json`)).catch((error: NodeJS.ErrnoException) =>
        log(
          `campaigns: cannot remove ${join(folder, `${month}.json`)} (${error.code}); it is tried again in an hour`,
        ),
      );
    }
    for (const [month, days] of months) {
      try {
        const before = (await readMonth(month)) ?? new Map<string, RolledDay>();
        const after: RollUp = new Map();
        for (const day of days) {
          const kept = before.get(day);
          const file = await fileIdentity(join(folder, `${day}.json`));
          if (file !== null && kept?.file === file) after.set(day, kept);
          else {
            const read = await readRows(day);
            if (read.file !== null) after.set(day, rollDay(day, read.file, read.rows));
          }
        }
        const same =
          after.size === before.size && [...after].every(([day, rolled]) => before.get(day) === rolled);
        if (!same) await writeRollUp(folder, month, after, ROW_FORMAT);
      } catch (error) {
        log(
          `campaigns: cannot roll up ${join(folder, `${month}.json`)} (${(error as NodeJS.ErrnoException).code ?? String(error)}); the report reads the month's days meanwhile, and it is tried again in an hour`,
        );
      }
    }
  };

  return {
    add(events) {
      if (events.length === 0) return Promise.resolve(true);
      // Events that arrive while a write runs go together in the next one: one fsync for them all.
      if (waiting) {
        waiting.events.push(...events);
        return waiting.written;
      }
      const batch: { events: CountEvent[]; written: Promise<boolean> } = {
        events: [...events],
        written: Promise.resolve(true),
      };
      waiting = batch;
      batch.written = serial(async () => {
        if (waiting === batch) waiting = null;
        // Each day's log on its own: one that cannot be written fails its events alone.
        let problem: unknown = null;
        for (const day of new Set(batch.events.map((event) => event.day))) {
          await append(
            day,
            batch.events.filter((event) => event.day === day),
          ).catch((error: unknown) => {
            problem = error;
          });
        }
        if (problem === null) {
          failing = false;
          return true;
        }
        if (!failing)
          log(
            `campaigns: cannot write the campaign counts to ${folder} (${(problem as NodeJS.ErrnoException).code ?? String(problem)}); make ENQUIRY_STORE_DIR a writable folder. The site keeps serving.`,
          );
        failing = true;
        return false;
      });
      return batch.written;
    },

    async read(since, until, by = "all") {
      const { days: files } = await folderFiles(folder);
      const inPeriod = files.filter(({ day }) => day >= since && day <= until);
      const logged = new Set(inPeriod.filter(({ kind }) => kind === "log").map(({ day }) => day));
      const days = [...new Set(inPeriod.map(({ day }) => day))].sort();
      // A finished day from its month's roll-up when the roll-up is of the day's file as it is.
      const rows = await Promise.all(
        days.map(async (day) => {
          const rolled = by === "all" || logged.has(day) ? null : await rolledDay(day);
          if (rolled) return by === "route" ? rolled.routes : rolled.campaigns;
          return readDay(day);
        }),
      );
      return groupRows(rows.flat(), by, since);
    },

    prune: (today) =>
      serial(async () => {
        const oldest = addDays(today, -RETENTION_DAYS);
        // Yesterday may still take a late event (a lead received before midnight, stored after).
        const finished = addDays(today, -1);
        const { days } = await folderFiles(folder).catch(() => ({ days: [] }));
        for (const { day, name, kind } of days) {
          try {
            if (day < oldest) await unlink(join(folder, name));
            else if (kind === "log" && day < finished) await compact(day);
          } catch (error) {
            log(
              `campaigns: cannot prune ${join(folder, name)} (${(error as NodeJS.ErrnoException).code ?? String(error)}); it is tried again in an hour`,
            );
          }
        }
        await rollUpMonths().catch((error: NodeJS.ErrnoException) =>
          log(
            `campaigns: cannot read ${folder} (${error.code ?? String(error)}); it is tried again in an hour`,
          ),
        );
      }),
  };
}

/** The day and month files of `folder` by the names read from it (none when it does not exist yet). */
async function folderFiles(folder: string): Promise<{
  days: { day: string; name: string; kind: "log" | "json" }[];
  months: string[];
}> {
  let entries: Dirent[];
  try {
    entries = await readdir(folder, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { days: [], months: [] };
    throw error;
  }
  const files = entries.filter((entry) => entry.isFile());
  return {
    days: files.flatMap((entry) => {
      const match = DAY_FILE.exec(entry.name);
      if (!match?.[1]) return [];
      return [{ day: match[1], name: entry.name, kind: match[2] as "log" | "json" }];
    }),
    months: files.flatMap((entry) => MONTH_FILE.exec(entry.name)?.[1] ?? []),
  };
}

/** How a day's and a month's files write a row. */
const ROW_FORMAT: RowFormat = { lineOf, rowOf };

function eventOf(day: string, line: string): CountEvent | null {
  if (line === "") return null;
  try {
    const parsed = JSON.parse(line) as unknown;
    if (!Array.isArray(parsed) || parsed.length !== 7) return null;
    const [route, source, medium, campaign, click, host, counter] = parsed as LogLine;
    const fields = [route, source, medium, campaign, click, host];
    if (!fields.every((field) => field === null || typeof field === "string")) return null;
    if (!COUNTERS.includes(counter)) return null;
    return { day, route, source, medium, campaign, click, host, counter };
  } catch {
    return null;
  }
}

/** A compacted row: its key's fields (day aside, in KEY_FIELDS' order), then its counters (in COUNTERS' order). */
type RowLine = (string | number | null)[];

/** A row as a compacted day file holds it (the benchmark writes a year of them). */
export function lineOf(row: CountRow): RowLine {
  return [...KEY_FIELDS.slice(1).map((field) => row[field]), ...COUNTERS.map((counter) => row[counter])];
}

function rowOf(day: string, line: unknown): CountRow | null {
  const keys = KEY_FIELDS.length - 1;
  if (!Array.isArray(line) || line.length !== keys + COUNTERS.length) return null;
  const fields = line.slice(0, keys);
  const counts = line.slice(keys);
  if (!fields.every((field) => field === null || typeof field === "string")) return null;
  if (!counts.every((count) => Number.isInteger(count) && count >= 0)) return null;
  const [route, source, medium, campaign, click, host] = fields as (string | null)[];
  return {
    day,
    route: route ?? null,
    source: source ?? null,
    medium: medium ?? null,
    campaign: campaign ?? null,
    click: click ?? null,
    host: host ?? null,
    ...(Object.fromEntries(COUNTERS.map((counter, index) => [counter, counts[index]])) as Record<
      Counter,
      number
    >),
  };
}
