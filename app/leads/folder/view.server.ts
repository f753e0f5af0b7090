/** What the folder store knows of its folder, kept private here and changed only through its operations. */
import { access, mkdir, unlink } from "node:fs/promises";
import { join } from "node:path";
import { type Lead, UNDELIVERED_STATES } from "~/leads/lead";

/** An entry of the folder that is not a usable lead, and the line that says so. */
export type Problem = { key: string; line: string };

/**
 * Which version of a file the view holds: its inode (every write is a new file renamed over the
 * old), mtime and size. Another process's write changes it, whatever the lead's state.
 */
export function fileVersion(info: { ino: number; mtimeMs: number; size: number }): string {
  return `${info.ino}:${info.mtimeMs}:${info.size}`;
}

/**
 * What the folder store knows of its folder, shared by its jobs (writes, scanning, the store's
 * own rules): the leads read or written, by file name, and what was said about the rest. The
 * collections and flags behind it are this module's own; the jobs call its operations.
 */
export interface FolderView {
  readonly folder: string;
  /** The server makes the folder when it is missing; the operator's CLI only reads what is there. */
  readonly create: boolean;
  readonly erased: string;
  readonly log: (line: string) => void;
  readonly now: () => Date;

  /** Makes the folder once, when this process may make it and has not made (or found) it yet. */
  makeFolder(): Promise<void>;
  /** Makes the folder again after it went missing under a write, and says so. */
  remakeFolder(): Promise<void>;
  /** The folder cannot be listed because it is gone: said once, if this process had made it. */
  reportMissing(): void;

  /** The lead read from file `name` and the file's version (`fileVersion`), if it was read or written. */
  known(name: string): { lead: Lead; version: string } | undefined;
  /** How many lead files are known. */
  size(): number;
  /** The file lead `id` was read from or written to: the only place it is ever written. */
  fileOf(id: string): string | undefined;
  /** A file was read and holds `lead`. */
  remember(name: string, lead: Lead, version: string): void;
  /** `lead` was written to its file `name`: known, its file recorded, any problem with it over. */
  rememberWrite(name: string, lead: Lead, version: string): void;
  /** Drops a file's lead; its file name stays known, so an outcome is written back to it. */
  forget(name: string): void;

  /** A save of lead `id` is under way: its file name stays known until it is written. */
  startSave(id: string): void;
  endSave(id: string): void;

  /** Says `problem` about entry `name`, once until the problem changes ("" is the folder itself). */
  report(name: string, problem: Problem): void;
  /** Entry `name` is usable again: a later problem with it is said again. */
  clearReport(name: string): void;

  /** Forgets the files and problems of entries no longer in the folder's listing. */
  forgetAbsent(present: ReadonlySet<string>): void;
  /**
   * Ends a scan: one lead per id (a second file with the same id is reported), each lead's file
   * recorded, and, when the folder was `listed`, files gone from it forgotten.
   */
  finishScan(present: ReadonlySet<string>, listed: boolean): void;
  /** Whether a scan completed. */
  scanned(): boolean;

  /** Every lead as of the last scan or write, oldest first. */
  sorted(): Lead[];
  countUndelivered(): number;
  /** Whether `lead` was erased; its copy here is then forgotten. */
  wasErased(lead: Lead): Promise<boolean>;
  /** Removes a lead's file (no erasure record). */
  remove(lead: Lead): Promise<void>;
}

export function createFolderView(options: {
  folder: string;
  create: boolean;
  erased: string;
  log: (line: string) => void;
  now: () => Date;
}): FolderView {
  const { folder, create, erased, log } = options;
  /** Valid leads by file name. */
  const cache = new Map<string, { lead: Lead; version: string }>();
  /** The file each lead was read from or written to, by lead id. */
  const files = new Map<string, string>();
  /** Leads with a save under way or failed: their file name stays known until it is written. */
  const saving = new Set<string>();
  /** Entries reported as unusable, by name: each is said once until it changes. */
  const reported = new Map<string, string>();
  /** Whether this process made (or found) the folder; whether its absence was said. */
  let made = false;
  let missingReported = false;
  let scanned = false;

  const byName = () => [...cache.entries()].sort(([a], [b]) => (a < b ? -1 : 1));

  const report = (name: string, problem: Problem) => {
    if (reported.get(name) === problem.key) return;
    reported.set(name, problem.key);
    log(`lead store: ${problem.line}`);
  };

  return {
    ...options,

    async makeFolder() {
      if (!create || made) return;
      await mkdir(folder, { recursive: true });
      made = true;
      missingReported = false;
    },

    async remakeFolder() {
      await mkdir(folder, { recursive: true });
      missingReported = false;
      log(`lead store: ${folder} was missing (deleted while the server ran?); made it again`);
    },

    reportMissing() {
      if (made && !missingReported) {
        log(
          `lead store: ${folder} is missing (deleted while the server ran?); it is made again at the next write`,
        );
      }
      missingReported = true;
    },

    known: (name) => cache.get(name),
    size: () => cache.size,
    fileOf: (id) => files.get(id),

    remember(name, lead, version) {
      cache.set(name, { lead, version });
    },

    rememberWrite(name, lead, version) {
      cache.set(name, { lead, version });
      files.set(lead.id, name);
      reported.delete(name);
    },

    forget(name) {
      cache.delete(name);
    },

    startSave(id) {
      saving.add(id);
    },

    endSave(id) {
      saving.delete(id);
    },

    report,

    clearReport(name) {
      reported.delete(name);
    },

    forgetAbsent(present) {
      for (const name of cache.keys()) if (!present.has(name)) cache.delete(name);
      for (const name of reported.keys()) if (name !== "" && !present.has(name)) reported.delete(name);
    },

    finishScan(present, listed) {
      // Two consistent files with one id (a lead edited by hand): the first one is the lead.
      const owners = new Map<string, string>();
      for (const [name, { lead }] of byName()) {
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
      for (const [id, name] of owners) files.set(id, name);
      // A file another process removed (retention, room for new leads) is forgotten, so the map
      // stays as large as the folder; a lead whose outcome is still being written keeps its name.
      if (listed) {
        for (const [id, name] of files) if (!present.has(name) && !saving.has(id)) files.delete(id);
      }
      scanned = true;
    },

    scanned: () => scanned,

    sorted: () => byName().map(([, entry]) => entry.lead),

    countUndelivered() {
      let count = 0;
      for (const { lead } of cache.values()) if (UNDELIVERED_STATES.includes(lead.state)) count += 1;
      return count;
    },

    async wasErased(lead) {
      try {
        await access(join(erased, lead.id));
      } catch {
        return false;
      }
      const name = files.get(lead.id);
      if (name !== undefined) cache.delete(name);
      files.delete(lead.id);
      return true;
    },

    async remove(lead) {
      const name = files.get(lead.id);
      if (name === undefined) return;
      await unlink(join(folder, name)).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== "ENOENT") throw error;
      });
      cache.delete(name);
      files.delete(lead.id);
    },
  };
}
