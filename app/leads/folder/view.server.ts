/** What the folder store knows of its folder: the leads it holds, and the problems it has reported. */
import { access, unlink } from "node:fs/promises";
import { join } from "node:path";
import { type Lead, UNDELIVERED_STATES } from "~/leads/lead";

/** An entry of the folder that is not a usable lead, and the line that says so. */
export type Problem = { key: string; line: string };

/**
 * What the folder store knows of its folder, shared by its jobs (writes, scanning, the store's
 * own rules): the leads read or written, by file name, and what was said about the rest.
 */
export interface FolderView {
  readonly folder: string;
  /** The server makes the folder when it is missing; the operator's CLI only reads what is there. */
  readonly create: boolean;
  readonly erased: string;
  readonly log: (line: string) => void;
  readonly now: () => Date;
  /** Valid leads by file name. */
  readonly cache: Map<string, { lead: Lead; mtimeMs: number }>;
  /** The file each lead was read from or written to: the only place it is ever written. */
  readonly fileOf: Map<string, string>;
  /** Leads with a save under way or failed: their file name stays known until it is written. */
  readonly saving: Set<string>;
  /** Entries reported as unusable, by name: each is said once until it changes. */
  readonly reported: Map<string, string>;
  /** Whether this process made (or found) the folder; whether its absence was said. */
  made: boolean;
  missingReported: boolean;
  /** Whether a scan completed. */
  scanned: boolean;
  report(name: string, problem: Problem): void;
  /** Drops a file's lead; its file name stays known, so an outcome is written back to it. */
  forget(name: string): void;
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
  const { folder, erased, log } = options;
  const cache = new Map<string, { lead: Lead; mtimeMs: number }>();
  const fileOf = new Map<string, string>();
  const reported = new Map<string, string>();
  const view: FolderView = {
    ...options,
    cache,
    fileOf,
    saving: new Set<string>(),
    reported,
    made: false,
    missingReported: false,
    scanned: false,
    report(name, problem) {
      if (reported.get(name) === problem.key) return;
      reported.set(name, problem.key);
      log(`lead store: ${problem.line}`);
    },
    forget(name) {
      cache.delete(name);
    },
    sorted: () => [...cache.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, entry]) => entry.lead),
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
      const name = fileOf.get(lead.id);
      if (name !== undefined) cache.delete(name);
      fileOf.delete(lead.id);
      return true;
    },
    async remove(lead) {
      const name = fileOf.get(lead.id);
      if (name === undefined) return;
      await unlink(join(folder, name)).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== "ENOENT") throw error;
      });
      cache.delete(name);
      fileOf.delete(lead.id);
    },
  };
  return view;
}
