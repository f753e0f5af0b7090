import { randomUUID } from "node:crypto";
import { access, mkdir, open, readdir, readFile, rename, stat, unlink, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { type Lead, type LeadState, logLeadState, parseLead, type SpamReason } from "~/leads/lead";
import type { EnquiryMessage } from "~/mail/types";

/** How many leads the store keeps at most (about 20 MB of files); past it, enquiries are not kept. */
export const MAX_LEADS = 10_000;
/** How many quarantined leads of one reason the store keeps; past it, the oldest of that reason go. */
export const MAX_SPAM_PER_REASON = 1_000;

/** A temporary file this old was left by a crash in the middle of a write, never by a write in progress. */
const TORN_AFTER_MS = 60_000;

const LEAD_FILE = /^\d{13}-[0-9a-f-]{36}\.json$/;
const TEMP_PREFIX = ".tmp-";

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

export class StoreFullError extends Error {
  constructor(count: number) {
    super(`the lead store holds ${count} leads, its limit`);
    this.name = "StoreFullError";
  }
}

export interface LeadStore {
  readonly folder: string;
  /** Writes a new lead durably (fsync'd file and folder) and returns it; throws when it cannot. */
  add(enquiry: EnquiryMessage, state: Extract<LeadState, "pending" | "inbox">): Promise<Lead>;
  /**
   * Keeps a lead a filter caught in the state `spam`, never delivered. Past MAX_SPAM_PER_REASON
   * of its reason, the oldest of that reason is removed (one log line each).
   */
  quarantine(enquiry: EnquiryMessage, reason: SpamReason): Promise<Lead>;
  /**
   * Replaces a lead's file durably, all at once; false (and nothing written) when the lead
   * was erased meanwhile.
   */
  save(lead: Lead): Promise<boolean>;
  remove(lead: Lead): Promise<void>;
  /**
   * Deletes a lead for good (a person's request): its id is recorded as erased first (fsync'd),
   * then its file is removed (fsync'd), so no process that still holds it writes it back.
   */
  erase(lead: Lead): Promise<void>;
  /** Whether the lead was erased (by any process); its copy here is then forgotten. */
  isErased(lead: Lead): Promise<boolean>;
  /**
   * Brings the view up to date with the folder (leads written by another process, by the
   * operator's CLI, or removed), and returns every lead, oldest first.
   */
  scan(): Promise<Lead[]>;
  /** Every lead as of the last scan or write, oldest first. */
  leads(): Lead[];
  /**
   * Removes leads that are not `pending` once they are older than `days`, quarantined ones
   * once older than `spamDays`, and erasure records older than `days`; returns how many leads.
   */
  prune(retention: { days: number; spamDays: number }): Promise<number>;
}

/**
 * The lead store: one JSON file per lead in `folder`, named `<received ms>-<id>.json`. Every
 * write goes to a temporary file that is fsync'd, renamed over the lead's file, and the folder
 * fsync'd (shared by the writes that land together), so after a crash each file is either its
 * old or its new version, and readers in other processes never see half a file.
 */
export function createLeadStore(options: {
  folder: string;
  /** The server makes the folder when it is missing; the operator's CLI only reads what is there. */
  create?: boolean;
  maxLeads?: number;
  maxSpamPerReason?: number;
  now?: () => Date;
  log?: (line: string) => void;
}): LeadStore {
  const {
    folder,
    create = true,
    maxLeads = MAX_LEADS,
    maxSpamPerReason = MAX_SPAM_PER_REASON,
    now = () => new Date(),
    log = console.error,
  } = options;
  const cache = new Map<string, { lead: Lead; mtimeMs: number }>();
  const erased = erasedFolder(folder);
  const erasedPath = (lead: Lead) => join(erased, lead.id);
  const reported = new Set<string>();
  let ready: Promise<unknown> | undefined;

  const fileName = (lead: Lead) => `${String(Date.parse(lead.receivedAt)).padStart(13, "0")}-${lead.id}.json`;

  const ensureFolder = async () => {
    ready ??= mkdir(folder, { recursive: true });
    try {
      await ready;
    } catch (error) {
      ready = undefined;
      throw error;
    }
  };

  // One folder fsync covers every rename made before it starts: concurrent writes share one.
  let syncing: Promise<void> | undefined;
  let queued: Promise<void> | undefined;
  const syncFolder = (): Promise<void> => {
    if (queued) return queued;
    const run = () => fsyncFolder(folder);
    const start = () => {
      const current = run().finally(() => {
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

  const wasErased = async (lead: Lead) => {
    try {
      await access(erasedPath(lead));
    } catch {
      return false;
    }
    cache.delete(fileName(lead));
    return true;
  };

  /**
   * An update checks for an erasure both before and after its rename. `erase` records the id
   * before it unlinks, so either this check sees the record and undoes the rename, or the
   * rename came before the unlink, which then removes it: the file never outlives an erase.
   */
  const write = async (lead: Lead, update: boolean) => {
    await ensureFolder();
    const name = fileName(lead);
    const temporary = join(folder, `${TEMP_PREFIX}${lead.id}-${randomUUID().slice(0, 8)}`);
    const handle = await open(temporary, "wx", 0o600);
    let mtimeMs: number;
    try {
      await handle.writeFile(`${JSON.stringify(lead)}\n`, "utf8");
      await handle.datasync();
      mtimeMs = (await handle.stat()).mtimeMs;
    } catch (error) {
      await handle.close();
      await unlink(temporary).catch(() => undefined);
      throw error;
    }
    await handle.close();
    if (update && (await wasErased(lead))) {
      await unlink(temporary).catch(() => undefined);
      return false;
    }
    await rename(temporary, join(folder, name));
    if (update && (await wasErased(lead))) {
      await unlink(join(folder, name)).catch(() => undefined);
      await syncFolder();
      return false;
    }
    await syncFolder();
    cache.set(name, { lead, mtimeMs });
    return true;
  };

  const addLead = async (enquiry: EnquiryMessage, state: LeadState, reason?: SpamReason) => {
    const at = now().toISOString();
    const lead: Lead = {
      id: randomUUID(),
      receivedAt: at,
      state,
      attempts: 0,
      lastError: null,
      nextAttemptAt: at,
      queuedAt: at,
      enquiry,
      ...(reason ? { reason } : {}),
    };
    await write(lead, false);
    logLeadState(lead);
    return lead;
  };

  const sorted = () =>
    [...cache.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, entry]) => entry.lead);

  const remove = async (lead: Lead) => {
    const name = fileName(lead);
    await unlink(join(folder, name)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "ENOENT") throw error;
    });
    cache.delete(name);
  };

  const readLead = async (name: string) => {
    const path = join(folder, name);
    const [text, info] = await Promise.all([readFile(path, "utf8"), stat(path)]);
    const lead = parseLead(text);
    if (lead) {
      // An operator released it from the quarantine: the server's log says so too.
      if (cache.get(name)?.lead.state === "spam" && lead.state !== "spam") logLeadState(lead);
      cache.set(name, { lead, mtimeMs: info.mtimeMs });
      reported.delete(name);
    } else if (!reported.has(name)) {
      reported.add(name);
      log(`lead store: ${path} is not a complete lead record; skipped (move it away once you have read it)`);
    }
  };

  return {
    folder,

    async add(enquiry, state) {
      // The quarantine has a bound of its own and never fills the store for real leads.
      let kept = 0;
      for (const { lead } of cache.values()) if (lead.state !== "spam") kept += 1;
      if (kept >= maxLeads) throw new StoreFullError(kept);
      return addLead(enquiry, state);
    },

    async quarantine(enquiry, reason) {
      const lead = await addLead(enquiry, "spam", reason);
      const same = sorted().filter((other) => other.state === "spam" && other.reason === reason);
      for (const oldest of same.slice(0, Math.max(0, same.length - maxSpamPerReason))) {
        await remove(oldest);
        log(
          `lead store: the quarantine holds ${maxSpamPerReason} ${reason} leads, its limit; removed the oldest, ${oldest.id} (received ${oldest.receivedAt})`,
        );
      }
      return lead;
    },

    save: (lead) => write(lead, true),

    remove,

    async erase(lead) {
      await mkdir(erased, { recursive: true });
      await writeFile(erasedPath(lead), "", { mode: 0o600, flush: true });
      await fsyncFolder(erased);
      await remove(lead);
      await syncFolder();
    },

    isErased: wasErased,

    async scan() {
      if (create) await ensureFolder();
      let names: string[];
      try {
        names = await readdir(folder);
      } catch (error) {
        if (create || (error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
        names = [];
      }
      const present = new Set(names);
      const gone = new Set(await readdir(erased).catch(() => [] as string[]));
      for (const name of cache.keys()) if (!present.has(name)) cache.delete(name);
      const time = now().getTime();
      await Promise.all(
        names.map(async (name) => {
          try {
            if (name.startsWith(TEMP_PREFIX)) {
              const info = await stat(join(folder, name));
              if (time - info.mtimeMs < TORN_AFTER_MS) return;
              await unlink(join(folder, name));
              log(
                `lead store: removed ${join(folder, name)}, a write torn by a crash (no lead was answered from it)`,
              );
              return;
            }
            if (!LEAD_FILE.test(name)) return;
            // An erase stopped between its record and the unlink: finish it.
            if (gone.has(name.slice(14, -5))) {
              cache.delete(name);
              if (create) await unlink(join(folder, name));
              return;
            }
            const cached = cache.get(name);
            // A sent lead never changes again; any other may (the deliverer, the operator's retry).
            if (cached?.lead.state === "sent") return;
            if (cached && (await stat(join(folder, name))).mtimeMs === cached.mtimeMs) return;
            await readLead(name);
          } catch (error) {
            // Removed between readdir and read, by retention in another process: nothing to do.
            if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
            cache.delete(name);
          }
        }),
      );
      return sorted();
    },

    leads: sorted,

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
