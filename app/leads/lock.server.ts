import { randomUUID } from "node:crypto";
import { open, readFile, rename, stat, unlink, utimes, writeFile } from "node:fs/promises";
import { hostname } from "node:os";

/** The owner refreshes the lock's mtime this often… */
export const HEARTBEAT_MS = 5_000;
/** …and a lock left unrefreshed this long belongs to a process that is gone. */
export const STALE_AFTER_MS = 30_000;

interface Holder {
  token: string;
  host: string;
  pid: number;
}

export interface DelivererLock {
  /** Takes the lock if it is free or stale; true when this process holds it. */
  acquire(): Promise<boolean>;
  /** Refreshes the heartbeat; false when another process has taken the lock over. */
  heartbeat(): Promise<boolean>;
  /** Whether the file still names this process (checked before each send). */
  holds(): Promise<boolean>;
  release(): Promise<void>;
}

/**
 * One deliverer per store folder: whoever holds `path`. The holder touches it every few
 * seconds. Another process takes it over when that heartbeat is older than STALE_AFTER_MS
 * (works across containers, where every server is PID 1), or at once when the holder was on
 * this host and its process is gone, or was this very process in a former life (a container
 * restarted with the same host name and PID 1).
 */
export function createDelivererLock(options: {
  path: string;
  staleAfterMs?: number;
  now?: () => number;
}): DelivererLock {
  const { path, staleAfterMs = STALE_AFTER_MS, now = Date.now } = options;
  const me: Holder = { token: randomUUID(), host: hostname(), pid: process.pid };

  const readHolder = async (): Promise<Holder | null> => {
    try {
      return JSON.parse(await readFile(path, "utf8")) as Holder;
    } catch {
      return null;
    }
  };

  const holds = async () => (await readHolder())?.token === me.token;

  const isGone = async (holder: Holder | null) => {
    const info = await stat(path);
    if (now() - info.mtimeMs > staleAfterMs) return true;
    if (holder === null) return now() - info.mtimeMs > 2_000; // a holder still writing its name
    if (holder.host !== me.host) return false;
    if (holder.pid === me.pid) return true;
    try {
      process.kill(holder.pid, 0);
      return false;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === "ESRCH";
    }
  };

  return {
    async acquire() {
      try {
        const handle = await open(path, "wx", 0o600);
        try {
          await handle.writeFile(JSON.stringify(me));
        } finally {
          await handle.close();
        }
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
      const holder = await readHolder();
      if (holder?.token === me.token) return true;
      if (!(await isGone(holder))) return false;
      const temporary = `${path}.${me.token}`;
      await writeFile(temporary, JSON.stringify(me), { mode: 0o600 });
      await rename(temporary, path);
      // Two processes taking over at once: the last rename wins, the other reads it back here.
      return holds();
    },

    async heartbeat() {
      if (!(await holds())) return false;
      const time = new Date(now());
      await utimes(path, time, time);
      return true;
    },

    holds,

    async release() {
      if (await holds()) await unlink(path).catch(() => undefined);
    },
  };
}
