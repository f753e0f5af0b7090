/**
 * The lead spool: leads the database could not take in time, each kept durably as a file in the
 * data folder until the drain moves it into the database.
 *
 * Why: docs/decisions/030-lead-spool.md.
 */
import { randomUUID } from "node:crypto";
import { mkdir, open, readdir, rename, unlink } from "node:fs/promises";
import { join } from "node:path";
import { DatabaseUnavailableError } from "~/db/database.server";
import { readLeadFile } from "~/leads/folder/entry.server";
import { fsyncFolder, TEMP_PREFIX } from "~/leads/folder/writes.server";
import { LEAD_FILE_NAME, type Lead, leadFileName, leadFileText, leadIdOfFileName } from "~/leads/lead";

/** How many leads a spool holds at most (a few MB): past it, a lead is sent directly instead. */
export const MAX_SPOOLED_LEADS = 1_000;

/** The wait before the next drain while leads wait: 1 s after a spooled lead, doubling to 5 s while the database refuses. */
export const DRAIN_FIRST_RETRY_MS = 1_000;
export const DRAIN_MAX_RETRY_MS = 5_000;

/** A temporary file this old was left by a crash in the middle of a write (no visitor was answered from it). */
const TORN_AFTER_MS = 60_000;

/** The suffix a spooled file that is no lead gets: it stays for an operator to read, and is never read again. */
export const UNREADABLE_SUFFIX = ".unreadable";

/** Where the spool lives inside ENQUIRY_STORE_DIR. */
export function spoolFolder(storeDir: string): string {
  return join(storeDir, "spool");
}

export class SpoolFullError extends Error {
  constructor(folder: string, count: number) {
    super(`${folder} holds ${count} leads, its limit`);
    this.name = "SpoolFullError";
  }
}

/**
 * What the drain does with one spooled lead: resolves once the database holds it (inserted now,
 * already there, or erased meanwhile, so it never comes back); throws when it cannot take it.
 */
export type SpoolImport = (lead: Lead) => Promise<unknown>;

/** What one round of the drain did. */
export interface DrainRound {
  /** Leads now in the database and gone from the spool. */
  moved: number;
  /** Leads still waiting (the database refused, or one failed on its own). */
  waiting: number;
  /** The error that stopped the round (the database refused), if any. */
  error?: unknown;
}

export interface LeadSpool {
  readonly folder: string;
  /**
   * Keeps `lead` durably: its file written, fsync'd and renamed, the folder fsync'd, before it
   * resolves true; false when the spool holds its id already (nothing written). Throws when it
   * cannot (SpoolFullError at MAX_SPOOLED_LEADS, however many are spooled at once).
   */
  put(lead: Lead): Promise<boolean>;
  /** Whether this process spooled lead `id` and it has not moved into the database yet. */
  holds(id: string): boolean;
  /** How many leads the spool holds now (0 when it cannot be read). */
  count(): Promise<number>;
  /**
   * Moves every spooled lead, oldest first, through `importLead`, and removes each file once the
   * database holds its lead. A file that is no lead is renamed aside (one log line) and the others
   * go on; `isOwnError` says an import's error belongs to that lead alone, any other error stops
   * the round (the database refused: the next round tries again).
   */
  drain(importLead: SpoolImport, isOwnError: (error: unknown) => boolean): Promise<DrainRound>;
}

/**
 * The spool in `folder` (ENQUIRY_STORE_DIR/spool), made when the first lead is spooled. Its file
 * names are `leadFileName`s, as in the lead folder; every path is the folder plus a name read from
 * it or made here, and only a regular file with exactly its lead's name is read as a lead.
 */
export function createLeadSpool(options: {
  folder: string;
  maxLeads?: number;
  log?: (line: string) => void;
  now?: () => number;
}): LeadSpool {
  const { folder, maxLeads = MAX_SPOOLED_LEADS, log = console.error, now = Date.now } = options;
  /** Leads this process spooled that the drain has not moved yet. */
  const spooled = new Set<string>();
  /** Leads whose import failed on their own, each said once. */
  const told = new Set<string>();
  /** The file names of leads being written now, each taken under `reserving` before its write. */
  const writing = new Set<string>();
  /** Reservations one at a time, so the limit counts every lead being written as well as those on disk. */
  let reserving: Promise<unknown> = Promise.resolve();

  const names = async () => {
    const entries = await readdir(folder, { withFileTypes: true });
    return entries.map((entry) => entry.name);
  };
  const leadNames = async () => (await names()).filter((name) => LEAD_FILE_NAME.test(name)).sort();

  /** Removes temporary files a crash left behind (none a visitor was answered from). */
  const removeTorn = async (all: readonly string[]) => {
    for (const name of all.filter((each) => each.startsWith(TEMP_PREFIX))) {
      const path = join(folder, name);
      try {
        const handle = await open(path, "r");
        const info = await handle.stat().finally(() => handle.close());
        if (info.isFile() && now() - info.mtimeMs >= TORN_AFTER_MS) await unlink(path);
      } catch {
        // Gone meanwhile, or not ours to remove: it is no lead either way.
      }
    }
  };

  /** Renames a file that is no lead aside, so it is never read again, and says so once. */
  const setAside = async (name: string, why: string) => {
    const aside = `${name}${UNREADABLE_SUFFIX}`;
    await rename(join(folder, name), join(folder, aside)).catch(() => undefined);
    log(
      `lead spool: ${join(folder, name)} ${why}; renamed ${aside}, it is not moved into the database: read it, then delete it`,
    );
  };

  /** Writes `lead` to its file `name`: a temporary file written, fsync'd and renamed, the folder fsync'd. */
  const write = async (lead: Lead, name: string) => {
    const temporary = join(folder, `${TEMP_PREFIX}${randomUUID()}`);
    const handle = await open(temporary, "wx", 0o600);
    try {
      await handle.writeFile(leadFileText(lead), "utf8");
      await handle.sync();
      await handle.close();
      await rename(temporary, join(folder, name));
    } catch (error) {
      await handle.close().catch(() => undefined);
      await unlink(temporary).catch(() => undefined);
      throw error;
    }
    await fsyncFolder(folder);
  };

  return {
    folder,

    async put(lead) {
      const name = leadFileName(lead);
      const reserve = async () => {
        await mkdir(folder, { recursive: true, mode: 0o700 });
        const held = new Set([...(await leadNames()), ...writing]);
        if ([...held].some((each) => leadIdOfFileName(each) === lead.id)) return false;
        if (held.size >= maxLeads) throw new SpoolFullError(folder, held.size);
        writing.add(name);
        return true;
      };
      const reserved = reserving.then(reserve);
      reserving = reserved.catch(() => undefined);
      if (!(await reserved)) return false;
      try {
        await write(lead, name);
      } finally {
        writing.delete(name);
      }
      spooled.add(lead.id);
      return true;
    },

    holds: (id) => spooled.has(id),

    async count() {
      return (await leadNames().catch(() => [])).length;
    },

    async drain(importLead, isOwnError) {
      let all: string[];
      try {
        all = await names();
      } catch (error) {
        // No spool yet: nothing waits.
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return { moved: 0, waiting: 0 };
        return { moved: 0, waiting: 0, error };
      }
      await removeTorn(all);
      const pending = all.filter((name) => LEAD_FILE_NAME.test(name)).sort();
      let moved = 0;
      let failed = 0;
      for (const [index, name] of pending.entries()) {
        let lead: Lead;
        try {
          const read = await readLeadFile(folder, name);
          if ("key" in read) {
            await setAside(name, `is not a lead (${read.line})`);
            continue;
          }
          lead = read.lead;
        } catch (error) {
          // Removed meanwhile (another process on a shared folder drained it): nothing to do.
          if ((error as NodeJS.ErrnoException).code === "ENOENT") continue;
          await setAside(name, `cannot be read (${error instanceof Error ? error.message : String(error)})`);
          continue;
        }
        try {
          await importLead(lead);
        } catch (error) {
          if (!isOwnError(error)) {
            if (moved > 0) await fsyncFolder(folder).catch(() => undefined);
            return { moved, waiting: pending.length - index + failed, error };
          }
          failed += 1;
          if (!told.has(lead.id)) {
            told.add(lead.id);
            log(
              `lead spool: the database refused lead ${lead.id} from ${join(folder, name)} (${error instanceof Error ? error.message : String(error)}); it stays in the spool and is tried again with the others`,
            );
          }
          continue;
        }
        await unlink(join(folder, name)).catch((error: NodeJS.ErrnoException) => {
          // Already gone (another process drained it): the database holds it either way.
          if (error.code !== "ENOENT") throw error;
        });
        spooled.delete(lead.id);
        told.delete(lead.id);
        moved += 1;
      }
      if (moved > 0) await fsyncFolder(folder);
      return { moved, waiting: failed };
    },
  };
}

export interface SpoolDrain {
  /** Starts draining: a round now (leads a run before this one spooled), then as they come. */
  start(): void;
  /** A lead was just spooled: a round soon (DRAIN_FIRST_RETRY_MS), unless one is due sooner. */
  wake(): void;
  /** Starts no new round; resolves once the one under way ends. */
  stop(): Promise<void>;
}

/**
 * The loop that moves this process's spool into the database: a round when woken, then one every
 * DRAIN_FIRST_RETRY_MS doubling to DRAIN_MAX_RETRY_MS while the database refuses, and one every
 * DRAIN_MAX_RETRY_MS while nothing waits. One line when a round fails (again only when its cause
 * changes; an unreachable database says so itself), one when the spool is empty again.
 */
export function startSpoolDrain(options: {
  spool: LeadSpool;
  importLead: SpoolImport;
  isOwnError: (error: unknown) => boolean;
  /** Told after a round that moved leads (delivery is woken). */
  onMoved: (count: number) => void;
  log?: (line: string) => void;
}): SpoolDrain {
  const { spool, importLead, isOwnError, onMoved, log = console.error } = options;
  let timer: NodeJS.Timeout | undefined;
  let dueAt = Number.POSITIVE_INFINITY;
  let running: Promise<void> | undefined;
  let started = false;
  let stopped = false;
  let delayMs = DRAIN_FIRST_RETRY_MS;
  let movedSinceEmpty = 0;
  let lastFault: string | undefined;

  const schedule = (ms: number) => {
    if (stopped || !started) return;
    const at = Date.now() + ms;
    if (timer && dueAt <= at) return;
    clearTimeout(timer);
    dueAt = at;
    timer = setTimeout(() => {
      timer = undefined;
      dueAt = Number.POSITIVE_INFINITY;
      if (running) return schedule(DRAIN_FIRST_RETRY_MS);
      running = round().finally(() => {
        running = undefined;
      });
    }, ms);
    timer.unref();
  };

  async function round() {
    let result: DrainRound;
    try {
      result = await spool.drain(importLead, isOwnError);
    } catch (error) {
      result = { moved: 0, waiting: 1, error };
    }
    if (result.moved > 0) {
      movedSinceEmpty += result.moved;
      onMoved(result.moved);
    }
    if (result.error !== undefined) {
      const line = `lead spool: cannot move the leads of ${spool.folder} into the database yet (${result.error instanceof Error ? result.error.message : String(result.error)}); they are tried again`;
      // An unreachable database says so itself, once when it starts and once when it ends.
      if (!(result.error instanceof DatabaseUnavailableError) && line !== lastFault) log(line);
      lastFault = line;
      delayMs = Math.min(delayMs * 2, DRAIN_MAX_RETRY_MS);
      return schedule(delayMs);
    }
    lastFault = undefined;
    delayMs = DRAIN_FIRST_RETRY_MS;
    if (result.waiting === 0 && movedSinceEmpty > 0) {
      log(
        `lead spool: moved ${movedSinceEmpty} lead${movedSinceEmpty === 1 ? "" : "s"} from ${spool.folder} into the database; none waits there now`,
      );
      movedSinceEmpty = 0;
    }
    schedule(DRAIN_MAX_RETRY_MS);
  }

  return {
    start() {
      if (started || stopped) return;
      started = true;
      schedule(0);
    },
    wake() {
      schedule(DRAIN_FIRST_RETRY_MS);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

/** The spool's operator lines: once when leads start to wait in it, once when it cannot be written; again after a change. */
export function createSpoolLog(log: (line: string) => void) {
  let state: "idle" | "keeping" | "failing" = "idle";
  return {
    /** The database took a lead again: the next lead spooled is said again. */
    idle() {
      state = "idle";
    },
    kept(folder: string, cause: string) {
      if (state === "keeping") return;
      state = "keeping";
      log(
        `lead store: the database did not take an enquiry (${cause}); enquiries wait in the spool ${folder} and move into the database when it answers (npm run leads -- --health counts them)`,
      );
    },
    failed(folder: string, cause: string) {
      if (state === "failing") return;
      state = "failing";
      log(
        `lead spool: cannot write ${folder} (${cause}); enquiries the database does not take are sent directly to each destination and kept nowhere: free space in ENQUIRY_STORE_DIR or let the server's user write it`,
      );
    },
  };
}
