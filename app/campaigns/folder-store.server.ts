/**
 * The campaign counts in the data folder: `campaigns/<day>.log`, one line per event appended and
 * fsync'd, compacted once the day is over into `campaigns/<day>.json`, its rows summed.
 */
import type { Dirent } from "node:fs";
import { lstat, mkdir, open, readdir, readFile, rename, unlink } from "node:fs/promises";
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
import type { CampaignCountStore } from "~/campaigns/store.server";
import { fsyncFolder } from "~/leads/folder/writes.server";

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
    const path = join(folder, `${day}.log`);
    const size = await lstat(path).then(
      (info) => (info.isFile() ? info.size : Number.POSITIVE_INFINITY),
      () => 0,
    );
    if (size >= MAX_DAY_LOG_BYTES) {
      if (full !== day)
        log(
          `campaigns: ${path} holds ${MAX_DAY_LOG_BYTES} bytes, a day's limit; the day's further events are not counted`,
        );
      full = day;
      return;
    }
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
    const handle = await open(path, "a", 0o600);
    try {
      await handle.write(lines.join(""));
      await handle.datasync();
    } finally {
      await handle.close();
    }
  };

  /** The events of `day`'s log, each line read alone: one that is no event (a torn last line) is skipped. */
  const readLog = async (day: string): Promise<CountEvent[]> => {
    const text = await readDayFile(join(folder, `${day}.log`));
    if (text === null) return [];
    const events: CountEvent[] = [];
    for (const line of text.split("\n")) {
      const event = eventOf(day, line);
      if (event) events.push(event);
    }
    return events;
  };

  /** Compacted days as last read, by their file's size and time: one report reads a day thrice. */
  const compacted = new Map<string, { stamp: string; rows: CountRow[] }>();

  /** `day`'s compacted rows (none when it has no such file). */
  const readRows = async (day: string): Promise<CountRow[]> => {
    const path = join(folder, `${day}.json`);
    const info = await lstat(path).catch(() => null);
    if (!info?.isFile()) return [];
    const stamp = `${info.size}:${info.mtimeMs}`;
    const known = compacted.get(day);
    if (known?.stamp === stamp) return known.rows;
    const rows = await parseRows(day, path);
    compacted.set(day, { stamp, rows });
    return rows;
  };

  const parseRows = async (day: string, path: string): Promise<CountRow[]> => {
    const text = await readDayFile(path);
    if (text === null) return [];
    try {
      const rows = JSON.parse(text) as unknown;
      if (Array.isArray(rows)) return rows.flatMap((line) => rowOf(day, line) ?? []);
    } catch {
      // Said below: the file is not rows.
    }
    log(
      `campaigns: ${join(folder, `${day}.json`)} is not a day's counts; its day reads as empty: restore it or delete it`,
    );
    return [];
  };

  const readDay = async (day: string) => sumRows([...(await readRows(day)), ...rowsOf(await readLog(day))]);

  /** Writes `day`'s rows to its `.json` (a temporary file fsync'd and renamed), then removes its log. */
  const compact = async (day: string) => {
    const rows = await readDay(day);
    const temporary = join(folder, `.${day}.json.tmp`);
    const handle = await open(temporary, "w", 0o600);
    try {
      await handle.writeFile(JSON.stringify(rows.map(lineOf)));
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, join(folder, `${day}.json`));
    await fsyncFolder(folder);
    await unlink(join(folder, `${day}.log`));
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
        try {
          await mkdir(folder, { recursive: true, mode: 0o700 });
          for (const day of new Set(batch.events.map((event) => event.day)))
            await append(
              day,
              batch.events.filter((event) => event.day === day),
            );
          failing = false;
          return true;
        } catch (error) {
          if (!failing)
            log(
              `campaigns: cannot write the campaign counts to ${folder} (${(error as NodeJS.ErrnoException).code ?? String(error)}); make ENQUIRY_STORE_DIR a writable folder. The site keeps serving.`,
            );
          failing = true;
          return false;
        }
      });
      return batch.written;
    },

    async read(since, until, by = "all") {
      const days = new Set(
        (await dayFiles(folder)).map(({ day }) => day).filter((day) => day >= since && day <= until),
      );
      const rows: CountRow[] = [];
      for (const day of [...days].sort()) rows.push(...(await readDay(day)));
      return groupRows(rows, by, since);
    },

    prune: (today) =>
      serial(async () => {
        const oldest = addDays(today, -RETENTION_DAYS);
        // Yesterday may still take a late event (a lead received before midnight, stored after).
        const finished = addDays(today, -1);
        for (const { day, name, kind } of await dayFiles(folder).catch(() => [])) {
          try {
            if (day < oldest) {
              await unlink(join(folder, name));
              compacted.delete(day);
            } else if (kind === "log" && day < finished) await compact(day);
          } catch (error) {
            log(
              `campaigns: cannot prune ${join(folder, name)} (${(error as NodeJS.ErrnoException).code ?? String(error)}); it is tried again in an hour`,
            );
          }
        }
      }),
  };
}

/** The day files of `folder` by the names read from it (none when it does not exist yet). */
async function dayFiles(folder: string): Promise<{ day: string; name: string; kind: "log" | "json" }[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(folder, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  return entries.flatMap((entry) => {
    const match = DAY_FILE.exec(entry.name);
    if (!match?.[1] || !entry.isFile()) return [];
    return [{ day: match[1], name: entry.name, kind: match[2] as "log" | "json" }];
  });
}

/** A day file's text, when `path` is a regular file (a link or a folder of that name is read as none). */
async function readDayFile(path: string): Promise<string | null> {
  const info = await lstat(path).catch(() => null);
  if (!info?.isFile()) return null;
  return readFile(path, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return null;
    throw error;
  });
}

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
