/** The folder lead store: one JSON file per lead in the data folder, behind the lead store contract. */
import { randomUUID } from "node:crypto";
import { access, lstat, mkdir, readdir, stat, unlink, writeFile as writeNewFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { DESTINATIONS, type DestinationName } from "~/destinations/lookup.server";
import {
  countLeads,
  type LeadOrder,
  type LeadStore,
  type LeadStoreOptions,
  MAX_LEADS,
  MAX_SPAM_PER_REASON,
  type Retention,
  StoreFullError,
  type WriteOutcome,
} from "~/leads/contract.server";
import {
  attemptedFolder,
  attemptsBegun,
  forgetAttempts,
  pruneAttempts,
  recordAttemptBegun,
} from "~/leads/folder/attempts.server";
import { readLeadFile } from "~/leads/folder/entry.server";
import { createLeadGuard } from "~/leads/folder/guard.server";
import { createFolderScan } from "~/leads/folder/scan.server";
import { createFolderView, type FolderView } from "~/leads/folder/view.server";
import { createFolderWrites, fsyncFolder } from "~/leads/folder/writes.server";
import {
  LEAD_FILE_NAME,
  type Lead,
  leadFileName,
  leadIdOfFileName,
  logLeadState,
  newLead,
  withDelivery,
} from "~/leads/lead";

/** A lock cannot be made because the folder takes no write at all: nobody else can change a lead either. */
const REFUSED_WRITES = new Set(["EROFS", "ENOSPC", "EDQUOT"]);

/** Delivered leads removed at once when the disk is full, so a new enquiry fits. */
const ROOM_ON_ENOSPC = 16;

/** Where the lead files (and the deliverer's lock) live inside ENQUIRY_STORE_DIR. */
export function leadsFolder(storeDir: string): string {
  return join(storeDir, "leads");
}

/**
 * Beside the leads: one empty file per erased lead, named by its id (a UUID, nothing
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
  /** Rereads the folder and returns every lead it holds, oldest first. */
  scan(): Promise<Lead[]>;
  /** Every lead as of the last scan or write, oldest first. */
  leads(): Lead[];
  /** Removes a lead's file (no erasure record). */
  remove(lead: Lead): Promise<void>;
  /** Whether undelivered leads have reached the cap (new enquiries are then not kept). */
  full(): boolean;
}

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
export function createFolderLeadStore(
  options: LeadStoreOptions & {
    folder: string;
    /** The server makes the folder when it is missing; the operator's CLI only reads what is there. */
    create?: boolean;
    /** Counts a lead once its new file is written (the campaign counts); never fails the write. */
    countLead?: (lead: Lead) => Promise<void>;
  },
): FolderLeadStore {
  const {
    folder,
    create = true,
    maxLeads = MAX_LEADS,
    maxSpamPerReason = MAX_SPAM_PER_REASON,
    now = () => new Date(),
    log = console.error,
    onWrite = () => {},
  } = options;
  const view = createFolderView({ folder, create, erased: erasedFolder(folder), log, now });
  const attempted = attemptedFolder(folder);
  const { fileOf, sorted, wasErased, countUndelivered } = view;
  const writes = createFolderWrites(view, onWrite);
  const scan = createFolderScan(view);
  // Every change of an existing lead's file, here and in `npm run leads`, holds its lock:
  // docs/decisions/029-one-guard-per-lead-file.md.
  const guard = createLeadGuard({
    folder,
    log,
    remakeFolder: create ? () => view.remakeFolder() : undefined,
    onLockError: (error) => writes.record(error),
  });
  /**
   * Deliveries pending when this process took over (`destination:id`): due at once, until their
   * next write.
   */
  const hurried = new Set<string>();

  /**
   * The lead as its file `name` holds it now, read while holding its lock (the view is brought up
   * to date with it); null when the file is gone (erased, removed, its folder deleted).
   */
  const readNow = async (name: string): Promise<Lead | null> => {
    try {
      const read = await readLeadFile(folder, name);
      if ("key" in read) throw new Error(read.line);
      view.remember(name, read.lead, read.version);
      return read.lead;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw error;
    }
  };

  /** Removes a lead's file (no erasure record), holding its lock. */
  const remove = async (lead: Lead) => {
    const name = fileOf(lead.id);
    if (name !== undefined) await guard.withLead(name, () => view.remove(lead));
  };

  /**
   * The pending lead `chosen`, claimed for a send to `destination`: read again under its lock, so
   * a change another process made since the last scan counts; null when it is no longer pending
   * and due there. A disk that takes no write at all (no lock can be made) has no other writer:
   * then it is read without one.
   */
  const claim = async (chosen: Lead, destination: DestinationName, time: number) => {
    const name = fileOf(chosen.id);
    if (name === undefined) return null;
    const read = () => readNow(name);
    const lead = await guard.withLead(name, read).catch((error: NodeJS.ErrnoException) => {
      if (error.code && REFUSED_WRITES.has(error.code)) return read();
      throw error;
    });
    const record = lead?.destinations[destination];
    if (!lead || record?.state !== "pending") return null;
    const due = hurried.has(`${destination}:${lead.id}`) ? 0 : Date.parse(record.nextAttemptAt);
    return due <= time ? lead : null;
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

  /** Writes a new lead; on a full disk the oldest delivered leads make room once. */
  const addLead = async (lead: Lead) => {
    const size = view.size();
    if (size >= maxLeads) await makeRoom(size - maxLeads + 1, `it holds ${maxLeads} leads`);
    const name = leadFileName(lead);
    try {
      await writes.write(name, lead);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
      if ((await makeRoom(ROOM_ON_ENOSPC, "the disk is full")) === 0) throw error;
      await writes.write(name, lead);
    }
    logLeadState(lead);
    await options.countLead?.(lead).catch(() => undefined);
    return lead;
  };

  return {
    folder,

    async add(enquiry, destinations, source, privacyNotice) {
      const undelivered = countUndelivered();
      if (undelivered >= maxLeads) throw new StoreFullError(undelivered);
      return addLead(newLead({ id: randomUUID(), enquiry, destinations, at: now(), source, privacyNotice }));
    },

    async addLead(lead) {
      // Whether the id is held or erased is read from the folder as it is now.
      if (!view.scanned()) await scan();
      if (await wasErased(lead)) return "erased";
      if (fileOf(lead.id) !== undefined) return "held";
      const undelivered = countUndelivered();
      if (undelivered >= maxLeads) throw new StoreFullError(undelivered);
      await addLead(lead);
      return "stored";
    },

    async quarantine(enquiry, reason, source, privacyNotice) {
      // The bound counts what the folder holds: right after start, the first scan may still run.
      if (!view.scanned()) await scan().catch(() => undefined);
      const lead = await addLead(
        newLead({ id: randomUUID(), enquiry, destinations: [], reason, at: now(), source, privacyNotice }),
      );
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
      const name = fileOf(lead.id);
      for (const destination of Object.keys(lead.destinations)) hurried.delete(`${destination}:${lead.id}`);
      if (name !== undefined) {
        view.startSave(lead.id);
        const written = await guard.withLead(name, () => writes.write(name, lead, true));
        view.endSave(lead.id);
        return written;
      }
      if (await wasErased(lead)) return false;
      throw new Error(`lead ${lead.id} was not read from ${folder}`);
    },

    async saveDelivery(lead, destination, record) {
      const name = fileOf(lead.id);
      hurried.delete(`${destination}:${lead.id}`);
      if (name === undefined) {
        if (await wasErased(lead)) return null;
        throw new Error(`lead ${lead.id} was not read from ${folder}`);
      }
      view.startSave(lead.id);
      // Read, changed and written under the lead's lock: the other destinations' records are the
      // file's own, whatever another process wrote since this one last read it.
      const saved = await guard.withLead(name, async () => {
        // A file gone (its folder deleted by hand) is written again from what this process knew;
        // an erased one is not (the write checks the erasure record).
        const stored = (await readNow(name)) ?? view.known(name)?.lead ?? lead;
        const updated = withDelivery(stored, destination, record);
        return (await writes.write(name, updated, true)) ? updated : null;
      });
      view.endSave(lead.id);
      return saved;
    },

    remove,

    async erase(lead) {
      await mkdir(view.erased, { recursive: true });
      await writeNewFile(join(view.erased, lead.id), "", { mode: 0o600, flush: true });
      await fsyncFolder(view.erased);
      // Read once the erasure is recorded: a send that begins from now on sees it and never goes
      // out, and one that began before left its marker (beginAttempt) or its counted attempt.
      const name = fileOf(lead.id);
      const stored =
        name === undefined
          ? lead
          : ((await readNow(name).catch(() => null)) ?? view.known(name)?.lead ?? lead);
      const marked = await attemptsBegun(attempted, lead.id);
      await remove(lead);
      await writes.syncFolder();
      await forgetAttempts(attempted, lead.id);
      return DESTINATIONS.filter(
        (destination) =>
          marked.includes(destination) || (stored.destinations[destination]?.attempts ?? 0) > 0,
      );
    },

    async beginAttempt(lead, destination) {
      // A counted attempt already says it; the first one leaves its marker before it goes out.
      if ((lead.destinations[destination]?.attempts ?? 0) === 0) {
        await recordAttemptBegun(attempted, lead.id, destination);
      }
      return !(await wasErased(lead));
    },

    isErased: wasErased,

    async has(id) {
      const name = fileOf(id);
      if (name === undefined) return false;
      const erasure = await access(join(view.erased, id)).then(
        () => true,
        () => false,
      );
      if (erasure) return false;
      return lstat(join(folder, name)).then(
        (info) => info.isFile(),
        () => false,
      );
    },

    async claimNext(destination, except) {
      // The view is this store: one deliverer per folder (its lock file) picks from it.
      const time = now().getTime();
      /** Leads read again under their lock and found not due here now, or whose lock is unusable. */
      const passed = new Set<string>();
      for (;;) {
        let chosen: Lead | undefined;
        let chosenDue = 0;
        for (const lead of sorted()) {
          const record = lead.destinations[destination];
          if (record?.state !== "pending" || except.has(lead.id) || passed.has(lead.id)) continue;
          const due = hurried.has(`${destination}:${lead.id}`) ? 0 : Date.parse(record.nextAttemptAt);
          if (chosen === undefined || due < chosenDue) [chosen, chosenDue] = [lead, due];
        }
        if (chosen === undefined) return { lead: null, dueAt: null };
        if (chosenDue > time) return { lead: null, dueAt: chosenDue };
        // Erased while it waited (`npm run leads -- erase`): never sent.
        if (await wasErased(chosen)) {
          hurried.delete(`${destination}:${chosen.id}`);
          continue;
        }
        try {
          const claimed = await claim(chosen, destination, time);
          if (claimed) return { lead: claimed };
        } catch (error) {
          // Its lock or its file unusable now: that lead waits, the others are sent.
          const line = error instanceof Error ? error.message : String(error);
          view.report(fileOf(chosen.id) ?? chosen.id, { key: `claim:${line}`, line });
        }
        passed.add(chosen.id);
      }
    },

    async hurryPending() {
      for (const lead of sorted()) {
        for (const [destination, record] of Object.entries(lead.destinations)) {
          if (record.state === "pending") hurried.add(`${destination}:${lead.id}`);
        }
      }
    },

    // A folder is never shared with a release before destinations: its leads read as they are.
    adopt: async () => {},

    scan,

    leads: sorted,

    list: scan,

    each: (since, order) => eachLeadFile(view, since, order),

    counts: async (unwrittenOutcomes) =>
      countLeads(view.scanned() ? sorted() : await scan(), unwrittenOutcomes),

    full: () => countUndelivered() >= maxLeads,

    async prune(retention) {
      const removed = await pruneFolder(view, remove, retention);
      const cutoff = now().getTime() - retention.days * DAY_MS;
      await pruneAttempts(attempted, cutoff, (id) => fileOf(id) !== undefined);
      return removed;
    },

    lastWrite: writes.lastWrite,

    probe: writes.probe,
  };
}

/** Lead files `each` reads ahead of the one it yields: a few KB each, and the disk kept busy. */
const READ_AHEAD = 16;

/**
 * The leads of the folder received at or after `since`, oldest (or newest) first, read a few
 * files ahead of the caller and none kept (the view is left as it is): what a scan would take, by
 * the same rules. A file that is not a usable lead gets one line and is skipped.
 */
async function* eachLeadFile(
  view: FolderView,
  since?: Date,
  order: LeadOrder = "oldest first",
): AsyncGenerator<Lead> {
  const { folder, log } = view;
  const names = await readdir(folder).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return [] as string[];
    throw error;
  });
  const gone = new Set(await readdir(view.erased).catch(() => [] as string[]));
  const from = since?.getTime() ?? Number.NEGATIVE_INFINITY;
  // The name starts with the time received (13 digits of ms): sorted names are oldest first.
  const oldestFirst = names
    .filter((name) => LEAD_FILE_NAME.test(name) && Number(name.slice(0, 13)) >= from)
    .filter((name) => !gone.has(leadIdOfFileName(name) ?? ""))
    .sort();
  // Two files with one id: the one that sorts first is the lead, in either order.
  const firstOfId = new Map<string, string>();
  for (const name of oldestFirst) {
    const id = leadIdOfFileName(name) ?? name;
    if (!firstOfId.has(id)) firstOfId.set(id, name);
  }
  const wanted =
    order === "oldest first"
      ? oldestFirst
      : oldestFirst.filter((name) => firstOfId.get(leadIdOfFileName(name) ?? name) === name).reverse();
  const read = (name: string) =>
    readLeadFile(folder, name).catch((error: NodeJS.ErrnoException) =>
      // Removed since the listing (retention, an erasure): not a lead any more.
      error.code === "ENOENT"
        ? null
        : {
            key: "error",
            line: `${join(folder, name)} cannot be read (${error.code ?? error.message}); skipped`,
          },
    );
  const ahead: ReturnType<typeof read>[] = [];
  let next = 0;
  // Two files with one id (a lead edited by hand): the first is the lead, as in a scan.
  const seen = new Set<string>();
  while (next < wanted.length || ahead.length > 0) {
    while (ahead.length < READ_AHEAD && next < wanted.length) ahead.push(read(wanted[next++] as string));
    const result = await ahead.shift();
    if (!result) continue;
    if ("key" in result) {
      log(`lead store: ${result.line}`);
      continue;
    }
    if (seen.has(result.lead.id)) continue;
    seen.add(result.lead.id);
    yield result.lead;
  }
}

const DAY_MS = 24 * 60 * 60_000;

/**
 * Removes leads that are not `pending` once they are older than `days`, quarantined ones once
 * older than `spamDays`, and erasure records older than `days`; returns how many leads.
 */
async function pruneFolder(
  view: FolderView,
  remove: (lead: Lead) => Promise<void>,
  { days, spamDays }: Retention,
): Promise<number> {
  const time = view.now().getTime();
  const cutoff = time - days * DAY_MS;
  const spamCutoff = time - spamDays * DAY_MS;
  let removed = 0;
  for (const lead of view.sorted()) {
    const received = Date.parse(lead.receivedAt);
    if (lead.state === "pending" || received >= (lead.state === "spam" ? spamCutoff : cutoff)) continue;
    await remove(lead);
    logLeadState(lead, "removed");
    removed += 1;
  }
  // An erasure record outlives any copy a server could still hold of its lead.
  for (const id of await readdir(view.erased).catch(() => [] as string[])) {
    const path = join(view.erased, id);
    const info = await stat(path).catch(() => null);
    if (info && info.mtimeMs < cutoff) await unlink(path).catch(() => undefined);
  }
  return removed;
}
