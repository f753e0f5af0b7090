/**
 * The folder store's guard: one process at a time reads, changes and writes a lead's file (the
 * server and `npm run leads` alike), through a lock beside it that names its holder.
 *
 * Why a lock per lead, and how a dead holder's lock is told: docs/decisions/029-one-guard-per-lead-file.md.
 */
import { readFileSync, readlinkSync } from "node:fs";
import { lstat, readlink, symlink, unlink } from "node:fs/promises";
import { join } from "node:path";

/** A lead's lock is its file name with this suffix: `<received ms>-<id>.json.lock`, never a lead's name. */
export const LOCK_SUFFIX = ".lock";

/** How long an operation waits for a lock a live process holds (a lead's write takes milliseconds), then fails alone. */
export const LOCK_WAIT_MS = 10_000;

/**
 * A lock whose holder ran in another PID namespace (another container on the same volume) cannot
 * be checked by its process id: it counts as left by a dead holder once it is this old.
 */
export const FOREIGN_LOCK_STALE_MS = 30_000;

/** The first and the longest pause between two looks at a lock another process holds. */
const FIRST_PAUSE_MS = 2;
const MAX_PAUSE_MS = 50;

/** Who holds a lock: a process, told apart from a later one that got the same number. */
interface Holder {
  pid: number;
  /** When the process started, in clock ticks since boot (/proc/PID/stat): "" where /proc is missing. */
  start: string;
  /** Its PID namespace (/proc/self/ns/pid): "" where it cannot be read. */
  ns: string;
  /** The kernel's boot id: a lock from before a reboot is a dead one's. */
  boot: string;
}

/** A lock another process holds past LOCK_WAIT_MS: the operation on that lead fails, the others go on. */
export class LeadLockedError extends Error {
  readonly code = "ELOCKED";
  constructor(path: string, holder: string) {
    super(
      `${path} is held by process ${holder} for more than ${LOCK_WAIT_MS / 1000} s; if no server or npm run leads is running on this folder, remove it`,
    );
    this.name = "LeadLockedError";
  }
}

const readOr = (read: () => string) => {
  try {
    return read();
  } catch {
    return "";
  }
};

/** Field 22 of /proc/PID/stat (the start time), read after the command name, which may hold spaces. */
function startOf(pid: number | "self"): string {
  const stat = readOr(() => readFileSync(`/proc/${pid}/stat`, "utf8"));
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? "";
}

let self: Holder | undefined;
/** This process as a lock names it. */
function thisProcess(): Holder {
  self ??= {
    pid: process.pid,
    start: startOf("self"),
    ns: readOr(() => readlinkSync("/proc/self/ns/pid")).replace(/\D/g, ""),
    boot: readOr(() => readFileSync("/proc/sys/kernel/random/boot_id", "utf8")).trim(),
  };
  return self;
}

/** The lock's content: the target of a symbolic link, so it is made with its holder's name in one step. */
const targetOf = (holder: Holder) =>
  `pid=${holder.pid} start=${holder.start} ns=${holder.ns} boot=${holder.boot}`;

/** What a lock held by process `pid` of this PID namespace says (the tests stage other holders with it). */
export function lockTargetFor(pid: number): string {
  return targetOf({ ...thisProcess(), pid, start: startOf(pid) });
}

const TARGET = /^pid=(\d+) start=(\d*) ns=(\d*) boot=([0-9a-f-]*)$/;

function holderOf(target: string): Holder | null {
  const match = TARGET.exec(target);
  if (!match) return null;
  const [, pid, start = "", ns = "", boot = ""] = match;
  return { pid: Number(pid), start, ns, boot };
}

/** Whether the process a lock names is gone. */
function isGone(holder: Holder, madeAtMs: number, own: boolean): boolean {
  const me = thisProcess();
  if (holder.boot && me.boot && holder.boot !== me.boot) return true;
  if (holder.ns !== me.ns) return Date.now() - madeAtMs > FOREIGN_LOCK_STALE_MS;
  // This process's own lock, not held by any of its operations: left by one that could not remove it.
  if (holder.pid === me.pid && holder.start === me.start) return !own;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return true;
  }
  // Alive, unless its number now belongs to a process that started later.
  return holder.start !== "" && startOf(holder.pid) !== holder.start;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The guard of the lead files of `folder`: `withLead(name, task)` runs `task` while this process
 * holds the lock of lead file `name` (a name read from the folder or made by the store, never
 * from a file's content), the operations of this process on one lead one after the other. The
 * lock is a symbolic link `name.lock` whose target names the holder (process id, start time, PID
 * namespace, boot), made in one step or not at all; a lock whose holder is gone is removed, by one
 * process at a time, and said in one log line.
 */
export function createLeadGuard(options: {
  folder: string;
  log: (line: string) => void;
  waitMs?: number;
  /** Makes the folder again when it went missing (the server's store; the operator's command only reads what is there). */
  remakeFolder?: () => Promise<void>;
  /** Told when a lock cannot be made (EROFS, ENOSPC…): the folder refuses writes. */
  onLockError?: (error: unknown) => void;
}) {
  const { folder, log, waitMs = LOCK_WAIT_MS, remakeFolder, onLockError = () => {} } = options;
  /** Each lead's operations in this process, one at a time, by file name. */
  const queues = new Map<string, Promise<unknown>>();
  /** The lock files this process holds now. */
  const held = new Set<string>();

  /** Makes the lock at `path` for this process: true, or false when another holds it. */
  const make = async (path: string, again = true): Promise<boolean> => {
    try {
      await symlink(targetOf(thisProcess()), path);
      held.add(path);
      return true;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EEXIST") return false;
      if (code === "ENOENT" && remakeFolder && again) {
        await remakeFolder();
        return make(path, false);
      }
      onLockError(error);
      throw error;
    }
  };

  /** Who holds the lock at `path` and whether they are gone; null when it is no longer there. */
  const inspect = async (path: string) => {
    const info = await lstat(path).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return null;
      throw error;
    });
    if (info === null) return null;
    if (!info.isSymbolicLink()) {
      throw new Error(`${path} is not a lock of the store (not a symbolic link); move it out of ${folder}`);
    }
    const target = await readlink(path).catch(() => null);
    if (target === null) return null;
    const holder = holderOf(target);
    if (!holder) throw new Error(`${path} is not a lock of the store; move it out of ${folder}`);
    return { target, ino: info.ino, gone: isGone(holder, info.mtimeMs, held.has(path)) };
  };

  /**
   * Removes the lock at `path` if it is still the dead holder's (`target`, `ino`): under a lock of
   * its own (`.break`), so two processes that found it dead never remove a new holder's lock.
   */
  const breakStale = async (path: string, target: string, ino: number): Promise<boolean> => {
    const breaker = `${path}.break`;
    if (!(await make(breaker))) {
      const other = await inspect(breaker);
      // Its breaker died in the middle: nobody is breaking it any more.
      if (other?.gone) await unlink(breaker).catch(() => undefined);
      return false;
    }
    try {
      const now = await lstat(path).catch(() => null);
      const still = now?.ino === ino && (await readlink(path).catch(() => null)) === target;
      if (!still) return true;
      await unlink(path);
      log(`lead store: removed ${path}, a lock left by ${target}, which is gone`);
      return true;
    } finally {
      held.delete(breaker);
      await unlink(breaker).catch(() => undefined);
    }
  };

  /** Takes the lock of lead file `name`, waiting while a live process holds it. */
  const acquire = async (name: string) => {
    const path = join(folder, `${name}${LOCK_SUFFIX}`);
    const deadline = Date.now() + waitMs;
    let delay = FIRST_PAUSE_MS;
    for (;;) {
      if (await make(path)) return path;
      const lock = await inspect(path);
      if (lock === null) continue;
      // Another process breaking the same dead lock: wait for it like for a live holder.
      if (lock.gone && (await breakStale(path, lock.target, lock.ino))) continue;
      if (Date.now() > deadline) throw new LeadLockedError(path, lock.target);
      await pause(delay);
      delay = Math.min(delay * 2, MAX_PAUSE_MS);
    }
  };

  const release = async (path: string) => {
    held.delete(path);
    // Only this process's own lock: one removed as a dead one's and taken since is another's.
    if ((await readlink(path).catch(() => null)) === targetOf(thisProcess())) {
      await unlink(path).catch(() => undefined);
    }
  };

  return {
    /** Runs `task` holding the lock of lead file `name`; rejects with the lock's error (LeadLockedError, EROFS…) without running it. */
    withLead<T>(name: string, task: () => Promise<T>): Promise<T> {
      const previous = queues.get(name) ?? Promise.resolve();
      const run = previous
        .catch(() => undefined)
        .then(async () => {
          const path = await acquire(name);
          try {
            return await task();
          } finally {
            await release(path);
          }
        });
      queues.set(name, run);
      const forget = () => {
        if (queues.get(name) === run) queues.delete(name);
      };
      run.then(forget, forget);
      return run;
    },
  };
}

export type LeadGuard = ReturnType<typeof createLeadGuard>;
