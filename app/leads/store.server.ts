import { randomUUID } from "node:crypto";
import { mkdir, open, readdir, readFile, rename, stat, unlink } from "node:fs/promises";
import { join } from "node:path";
import type { Enquiry } from "~/enquiry/fields";
import { type Lead, type LeadState, logLeadState, parseLead } from "~/leads/lead";

/** How many leads the store keeps at most (about 20 MB of files); past it, enquiries are not kept. */
export const MAX_LEADS = 10_000;

/** A temporary file this old was left by a crash in the middle of a write, never by a write in progress. */
const TORN_AFTER_MS = 60_000;

const LEAD_FILE = /^\d{13}-[0-9a-f-]{36}\.json$/;
const TEMP_PREFIX = ".tmp-";

/** Where the lead files (and the deliverer's lock) live inside ENQUIRY_STORE_DIR. */
export function leadsFolder(storeDir: string): string {
  return join(storeDir, "leads");
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
  add(enquiry: Enquiry, state: Extract<LeadState, "pending" | "inbox">): Promise<Lead>;
  /** Replaces a lead's file durably, all at once. */
  save(lead: Lead): Promise<void>;
  remove(lead: Lead): Promise<void>;
  /**
   * Brings the view up to date with the folder (leads written by another process, by the
   * operator's CLI, or removed), and returns every lead, oldest first.
   */
  scan(): Promise<Lead[]>;
  /** Every lead as of the last scan or write, oldest first. */
  leads(): Lead[];
  /** Removes leads that are not `pending` once they are older than `days`; returns how many. */
  prune(days: number): Promise<number>;
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
  now?: () => Date;
  log?: (line: string) => void;
}): LeadStore {
  const {
    folder,
    create = true,
    maxLeads = MAX_LEADS,
    now = () => new Date(),
    log = console.error,
  } = options;
  const cache = new Map<string, { lead: Lead; mtimeMs: number }>();
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
    const run = async () => {
      const handle = await open(folder, "r");
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
    };
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

  const write = async (lead: Lead) => {
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
    await rename(temporary, join(folder, name));
    await syncFolder();
    cache.set(name, { lead, mtimeMs });
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
      if (cache.size >= maxLeads) throw new StoreFullError(cache.size);
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
      };
      await write(lead);
      logLeadState(lead);
      return lead;
    },

    save: write,

    remove,

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

    async prune(days) {
      const cutoff = now().getTime() - days * 24 * 60 * 60_000;
      let removed = 0;
      for (const lead of sorted()) {
        if (lead.state === "pending" || Date.parse(lead.receivedAt) >= cutoff) continue;
        await remove(lead);
        logLeadState(lead, "removed");
        removed += 1;
      }
      return removed;
    },
  };
}
