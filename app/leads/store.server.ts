import { randomUUID } from "node:crypto";
import { constants, type Stats } from "node:fs";
import {
  access,
  lstat,
  mkdir,
  open,
  readdir,
  rename,
  stat,
  unlink,
  writeFile as writeNewFile,
} from "node:fs/promises";
import { dirname, join } from "node:path";
import { countLeads, type LeadStore, StoreFullError, type WriteOutcome } from "~/leads/contract.server";
import { type Lead, leadFileName, logLeadState, newLead, parseLead, UNDELIVERED_STATES } from "~/leads/lead";

/**
 * How many leads that have not reached the agency (`pending`, `inbox`, `failed`) the store
 * keeps at most, and how many files in all (about 20 MB): past it the oldest `sent` leads
 * make room, and when only undelivered ones are left, enquiries are not kept.
 */
export const MAX_LEADS = 10_000;

/** How many quarantined leads of one reason the store keeps; past it, the oldest of that reason go. */
export const MAX_SPAM_PER_REASON = 1_000;

/** A temporary file this old was left by a crash in the middle of a write, never by a write in progress. */
const TORN_AFTER_MS = 60_000;
/** Files read at once: 10 000 leads scan under a 1 024 file-descriptor limit. */
const READ_CONCURRENCY = 32;
/** A lead file is a few KB; anything this large is not one, and is not read into memory. */
const MAX_FILE_BYTES = 256 * 1024;
/** Delivered leads removed at once when the disk is full, so a new enquiry fits. */
const ROOM_ON_ENOSPC = 16;

const LEAD_FILE = /^\d{13}-[0-9a-f-]{36}\.json$/;
const TEMP_PREFIX = ".tmp-";
/** Never blocks (a FIFO, a device), never follows a symbolic link. */
const READ_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW;

/** Where the lead files (and the deliverer's lock) live inside ENQUIRY_STORE_DIR. */
export function leadsFolder(storeDir: string): string {
  return join(storeDir, "leads");
}

/**
 * Beside the leads: one empty file per erased lead, named by its id (a random UUID, nothing
 * about the person). A server that still holds such a lead in memory checks here before it
 * sends or writes it, so an erased lead never comes back.
 */
export function erasedFolder(leads: string): string {
  return join(dirname(leads), "erased");
}

export type { LeadStore, WriteOutcome };
export { StoreFullError };

/** The folder store: the contract, and what its own tests and the cap need. */
export interface FolderLeadStore extends LeadStore {
  /** Removes a lead's file (no erasure record). */
  remove(lead: Lead): Promise<void>;
  /** Whether undelivered leads have reached the cap (new enquiries are then not kept). */
  full(): boolean;
}

type Problem = { key: string; line: string };

/**
 * The lead store: one JSON file per lead in `folder`, named `<received ms>-<id>.json`. Every
 * write goes to a temporary file that is fsync'd, renamed over the lead's file, and the folder
 * fsync'd (shared by the writes that land together), so after a crash each file is either its
 * old or its new version, and readers in other processes never see half a file.
 *
 * The folder is shared with operators and other processes, so a lead is only what a regular
 * file with exactly its own name holds (a copy under another name is never a second lead), and
 * every path is the folder plus a name read from it or made here.
 */
export function createLeadStore(options: {
  folder: string;
  /** The server makes the folder when it is missing; the operator's CLI only reads what is there. */
  create?: boolean;
  maxLeads?: number;
  maxSpamPerReason?: number;
  now?: () => Date;
  log?: (line: string) => void;
  /** Told after every write and probe: null when it worked, the error when it did not. */
  onWrite?: (error: unknown) => void;
}): FolderLeadStore {
  const {
    folder,
    create = true,
    maxLeads = MAX_LEADS,
    maxSpamPerReason = MAX_SPAM_PER_REASON,
    now = () => new Date(),
    log = console.error,
    onWrite = () => {},
  } = options;
  /** Valid leads by file name. */
  const cache = new Map<string, { lead: Lead; mtimeMs: number }>();
  /** The file each lead was read from or written to: the only place it is ever written. */
  const fileOf = new Map<string, string>();
  /** Leads with a save under way or failed: their file name stays known until it is written. */
  const saving = new Set<string>();
  /** Entries reported as unusable, by name: each is said once until it changes. */
  const reported = new Map<string, string>();
  const erased = erasedFolder(folder);
  let made = false;
  let missingReported = false;
  /** Whether the scan under way ran out of file descriptors. */
  let outOfDescriptors = false;
  let last: WriteOutcome | null = null;

  const record = (error: unknown) => {
    last = error
      ? { ok: false, at: now().getTime(), error: error instanceof Error ? error.message : String(error) }
      : { ok: true, at: now().getTime() };
    onWrite(error ?? null);
  };

  const report = (name: string, problem: Problem) => {
    if (reported.get(name) === problem.key) return;
    reported.set(name, problem.key);
    log(`lead store: ${problem.line}`);
  };

  // The lead's file name stays known (fileOf): an outcome is written back to it even after
  // the folder was deleted and made again.
  const forget = (name: string) => {
    cache.delete(name);
  };

  /** Opens a new file in the folder, making the folder (again) when it is missing. */
  const openNew = async (path: string) => {
    if (create && !made) {
      await mkdir(folder, { recursive: true });
      made = true;
      missingReported = false;
    }
    try {
      return await open(path, "wx", 0o600);
    } catch (error) {
      if (!create || (error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      await mkdir(folder, { recursive: true });
      missingReported = false;
      log(`lead store: ${folder} was missing (deleted while the server ran?); made it again`);
      return await open(path, "wx", 0o600);
    }
  };

  // One folder fsync covers every rename made before it starts: concurrent writes share one.
  let syncing: Promise<void> | undefined;
  let queued: Promise<void> | undefined;
  const syncFolder = (): Promise<void> => {
    if (queued) return queued;
    const start = () => {
      const current = fsyncFolder(folder).finally(() => {
        if (syncing === current) syncing = undefined;
      });
      syncing = current;
      return current;
    };
    if (!syncing) return start();
    const next = syncing
      .catch(() => undefined)
      .then(() => {
        queued = undefined;
        return start();
      });
    queued = next;
    return next;
  };

  /** Whether `lead` was erased; its copy here is then forgotten. */
  const wasErased = async (lead: Lead) => {
    try {
      await access(join(erased, lead.id));
    } catch {
      return false;
    }
    const name = fileOf.get(lead.id);
    if (name !== undefined) cache.delete(name);
    fileOf.delete(lead.id);
    return true;
  };

  /**
   * An update checks for an erasure both before and after its rename. `erase` records the id
   * before it unlinks, so either this check sees the record and undoes the rename, or the
   * rename came before the unlink, which then removes it: the file never outlives an erase.
   */
  const writeFile = async (name: string, lead: Lead, update: boolean) => {
    const temporary = join(folder, `${TEMP_PREFIX}${randomUUID()}`);
    const handle = await openNew(temporary);
    let mtimeMs: number;
    try {
      await handle.writeFile(`${JSON.stringify(lead)}\n`, "utf8");
      await handle.datasync();
      mtimeMs = (await handle.stat()).mtimeMs;
    } catch (error) {
      await handle.close().catch(() => undefined);
      await unlink(temporary).catch(() => undefined);
      throw error;
    }
    await handle.close();
    if (update && (await wasErased(lead))) {
      await unlink(temporary).catch(() => undefined);
      return false;
    }
    try {
      await rename(temporary, join(folder, name));
    } catch (error) {
      await unlink(temporary).catch(() => undefined);
      throw error;
    }
    if (update && (await wasErased(lead))) {
      await unlink(join(folder, name)).catch(() => undefined);
      await syncFolder();
      return false;
    }
    await syncFolder();
    cache.set(name, { lead, mtimeMs });
    fileOf.set(lead.id, name);
    reported.delete(name);
    return true;
  };

  const write = async (name: string, lead: Lead, update = false) => {
    let written: boolean;
    try {
      written = await writeFile(name, lead, update);
    } catch (error) {
      record(error);
      throw error;
    }
    record(null);
    return written;
  };

  const sorted = () =>
    [...cache.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, entry]) => entry.lead);

  const countUndelivered = () => {
    let count = 0;
    for (const { lead } of cache.values()) if (UNDELIVERED_STATES.includes(lead.state)) count += 1;
    return count;
  };

  const remove = async (lead: Lead) => {
    const name = fileOf.get(lead.id);
    if (name === undefined) return;
    await unlink(join(folder, name)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "ENOENT") throw error;
    });
    cache.delete(name);
    fileOf.delete(lead.id);
  };

  /** Removes up to `count` delivered leads, oldest first; never one the agency has not got. */
  const makeRoom = async (count: number, why: string) => {
    const oldest = sorted()
      .filter((lead) => lead.state === "sent")
      .slice(0, count);
    for (const lead of oldest) {
      await remove(lead);
      logLeadState(lead, "removed");
    }
    if (oldest.length > 0) {
      log(
        `lead store: removed the ${oldest.length} oldest delivered lead${oldest.length === 1 ? "" : "s"} from ${folder} to make room (${why})`,
      );
    }
    return oldest.length;
  };

  const kindOf = (info: Stats) =>
    info.isDirectory()
      ? "a directory"
      : info.isSymbolicLink()
        ? "a symbolic link"
        : info.isFIFO()
          ? "a FIFO"
          : info.isSocket()
            ? "a socket"
            : info.isCharacterDevice() || info.isBlockDevice()
              ? "a device"
              : "not a regular file";

  /** Reads one lead file: regular files only, opened without blocking or following a link. */
  const readLead = async (name: string, path: string): Promise<Problem | null> => {
    const handle = await open(path, READ_FLAGS);
    try {
      const info = await handle.stat();
      if (!info.isFile()) {
        return {
          key: "kind",
          line: `${path} is ${kindOf(info)}, not a lead file; skipped: move it out of ${folder}`,
        };
      }
      if (info.size > MAX_FILE_BYTES) {
        return {
          key: "size",
          line: `${path} is ${info.size} bytes, too large for a lead; skipped: move it out of ${folder}`,
        };
      }
      const lead = parseLead(await handle.readFile("utf8"));
      if (!lead) {
        return {
          key: `incomplete:${info.mtimeMs}`,
          line: `${path} is not a complete lead record; skipped (move it away once you have read it)`,
        };
      }
      if (leadFileName(lead) !== name) {
        return {
          key: `misnamed:${info.mtimeMs}`,
          line: `${path} holds lead ${lead.id}, whose file is ${leadFileName(lead)}; skipped and never delivered (a copy made by hand? move it out of ${folder})`,
        };
      }
      // An operator released it from the quarantine: the server's log says so too.
      if (cache.get(name)?.lead.state === "spam" && lead.state !== "spam") logLeadState(lead);
      cache.set(name, { lead, mtimeMs: info.mtimeMs });
      return null;
    } finally {
      await handle.close();
    }
  };

  /** One entry of the folder, on its own: whatever it is, it fails alone. */
  const inspect = async (name: string, time: number, gone: Set<string>) => {
    const path = join(folder, name);
    try {
      // An erase stopped between its record and the unlink: the server finishes it.
      if (gone.has(name.slice(14, -5))) {
        forget(name);
        if (create) await unlink(path);
        return;
      }
      const info = await lstat(path);
      if (name.startsWith(TEMP_PREFIX)) {
        if (!info.isFile()) {
          report(name, {
            key: "kind",
            line: `${path} is ${kindOf(info)}, not a write of the store; move it out of ${folder}`,
          });
          return;
        }
        if (time - info.mtimeMs < TORN_AFTER_MS) return;
        await unlink(path);
        log(`lead store: removed ${path}, a write torn by a crash (no lead was answered from it)`);
        return;
      }
      if (!info.isFile()) {
        forget(name);
        report(name, {
          key: "kind",
          line: `${path} is ${kindOf(info)}, not a lead file; skipped: move it out of ${folder}`,
        });
        return;
      }
      const cached = cache.get(name);
      // A sent lead never changes again; any other may (the deliverer, the operator's retry).
      if (cached && (cached.lead.state === "sent" || cached.mtimeMs === info.mtimeMs)) return;
      const problem = await readLead(name, path);
      if (problem) {
        forget(name);
        report(name, problem);
      } else reported.delete(name);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // Removed between readdir and read (retention in another process): nothing to do.
      if (code === "ENOENT") return forget(name);
      // Out of descriptors for a moment (another part of the process): the next scan tries again.
      if (code === "EMFILE" || code === "ENFILE") {
        outOfDescriptors = true;
        report("", {
          key: code,
          line: `${folder}: too many open files (${code}); some leads wait for the next scan`,
        });
        return;
      }
      forget(name);
      const fix =
        code === "EACCES" || code === "EPERM"
          ? "give the server's user read access, or move it out"
          : code === "ELOOP"
            ? "it is a symbolic link: move it out"
            : "move it out";
      report(name, {
        key: `error:${code}`,
        line: `${path} cannot be read (${error instanceof Error ? error.message : String(error)}); skipped: ${fix} of ${folder}`,
      });
    }
  };

  /** Runs `task` over `items`, at most `limit` at a time. */
  const eachLimited = async (items: string[], limit: number, task: (item: string) => Promise<void>) => {
    let next = 0;
    const worker = async () => {
      while (next < items.length) await task(items[next++] as string);
    };
    await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  };

  const scanFolder = async () => {
    if (create && !made) {
      await mkdir(folder, { recursive: true });
      made = true;
    }
    let names: string[];
    let listed = true;
    try {
      names = await readdir(folder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      if (made && !missingReported) {
        log(
          `lead store: ${folder} is missing (deleted while the server ran?); it is made again at the next write`,
        );
      }
      missingReported = true;
      names = [];
      listed = false;
    }
    const present = new Set(names);
    for (const name of cache.keys()) if (!present.has(name)) forget(name);
    for (const name of reported.keys()) if (name !== "" && !present.has(name)) reported.delete(name);
    const time = now().getTime();
    const entries = names.filter((name) => LEAD_FILE.test(name) || name.startsWith(TEMP_PREFIX)).sort();
    const gone = new Set(await readdir(erased).catch(() => [] as string[]));
    outOfDescriptors = false;
    await eachLimited(entries, READ_CONCURRENCY, (name) => inspect(name, time, gone));
    // Said once while it lasts, and again if it comes back after a scan without it.
    if (!outOfDescriptors) reported.delete("");
    // Two consistent files with one id (a lead edited by hand): the first one is the lead.
    const owners = new Map<string, string>();
    for (const [name, { lead }] of [...cache.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const first = owners.get(lead.id);
      if (first === undefined) {
        owners.set(lead.id, name);
        continue;
      }
      cache.delete(name);
      report(name, {
        key: "duplicate",
        line: `${join(folder, name)} holds lead ${lead.id}, already read from ${first}; skipped and never delivered: move it out of ${folder}`,
      });
    }
    for (const [id, name] of owners) fileOf.set(id, name);
    // A file another process removed (retention, room for new leads) is forgotten, so the map
    // stays as large as the folder; a lead whose outcome is still being written keeps its name.
    if (listed) {
      for (const [id, name] of fileOf) if (!present.has(name) && !saving.has(id)) fileOf.delete(id);
    }
    scanned = true;
    return sorted();
  };

  /** Writes a new lead; on a full disk the oldest delivered leads make room once. */
  const addLead = async (lead: Lead) => {
    if (cache.size >= maxLeads) await makeRoom(cache.size - maxLeads + 1, `it holds ${maxLeads} leads`);
    const name = leadFileName(lead);
    try {
      await write(name, lead);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
      if ((await makeRoom(ROOM_ON_ENOSPC, "the disk is full")) === 0) throw error;
      await write(name, lead);
    }
    logLeadState(lead);
    return lead;
  };

  // Scans never overlap: a caller during one gets its result.
  let scanning: Promise<Lead[]> | undefined;
  let scanned = false;
  const scan = () => {
    scanning ??= scanFolder().finally(() => {
      scanning = undefined;
    });
    return scanning;
  };

  let probing: Promise<WriteOutcome> | undefined;
  const probeOnce = async (): Promise<WriteOutcome> => {
    const path = join(folder, `${TEMP_PREFIX}probe-${randomUUID()}`);
    try {
      const handle = await openNew(path);
      try {
        await handle.writeFile("probe\n");
        await handle.datasync();
      } finally {
        await handle.close();
        await unlink(path).catch(() => undefined);
      }
      record(null);
    } catch (error) {
      record(error);
    }
    return last as WriteOutcome;
  };

  return {
    folder,

    async add(enquiry, state) {
      const undelivered = countUndelivered();
      if (undelivered >= maxLeads) throw new StoreFullError(undelivered);
      return addLead(newLead({ id: randomUUID(), enquiry, state, at: now() }));
    },

    async quarantine(enquiry, reason) {
      // The bound counts what the folder holds: right after start, the first scan may still run.
      if (!scanned) await scan().catch(() => undefined);
      const lead = await addLead(newLead({ id: randomUUID(), enquiry, state: "spam", reason, at: now() }));
      const same = sorted().filter((other) => other.state === "spam" && other.reason === reason);
      for (const oldest of same.slice(0, Math.max(0, same.length - maxSpamPerReason))) {
        await remove(oldest);
        log(
          `lead store: the quarantine holds ${maxSpamPerReason} ${reason} leads, its limit; removed the oldest, ${oldest.id} (received ${oldest.receivedAt})`,
        );
      }
      return lead;
    },

    async save(lead) {
      const name = fileOf.get(lead.id);
      if (name !== undefined) {
        saving.add(lead.id);
        const written = await write(name, lead, true);
        saving.delete(lead.id);
        return written;
      }
      if (await wasErased(lead)) return false;
      throw new Error(`lead ${lead.id} was not read from ${folder}`);
    },

    remove,

    async erase(lead) {
      await mkdir(erased, { recursive: true });
      await writeNewFile(join(erased, lead.id), "", { mode: 0o600, flush: true });
      await fsyncFolder(erased);
      await remove(lead);
      await syncFolder();
    },

    isErased: wasErased,

    claim: async (lead) => ((await wasErased(lead)) ? null : lead),

    scan,

    leads: sorted,

    list: scan,

    counts: async (overrides) => countLeads(scanned ? sorted() : await scan(), overrides),

    full: () => countUndelivered() >= maxLeads,

    async prune({ days, spamDays }) {
      const time = now().getTime();
      const cutoff = time - days * DAY_MS;
      const spamCutoff = time - spamDays * DAY_MS;
      let removed = 0;
      for (const lead of sorted()) {
        const received = Date.parse(lead.receivedAt);
        if (lead.state === "pending" || received >= (lead.state === "spam" ? spamCutoff : cutoff)) continue;
        await remove(lead);
        logLeadState(lead, "removed");
        removed += 1;
      }
      // An erasure record outlives any copy a server could still hold of its lead.
      for (const id of await readdir(erased).catch(() => [] as string[])) {
        const path = join(erased, id);
        const info = await stat(path).catch(() => null);
        if (info && info.mtimeMs < cutoff) await unlink(path).catch(() => undefined);
      }
      return removed;
    },

    lastWrite: () => last,

    probe() {
      probing ??= probeOnce().finally(() => {
        probing = undefined;
      });
      return probing;
    },
  };
}

const DAY_MS = 24 * 60 * 60_000;

async function fsyncFolder(path: string): Promise<void> {
  const handle = await open(path, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
