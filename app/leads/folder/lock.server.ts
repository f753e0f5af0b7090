/** The folder store's deliverer lock: a file beside the leads that names its holder and carries its heartbeat. */
import { randomUUID } from "node:crypto";
import { lstat, open, readFile, rename, unlink, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { DelivererLock } from "~/leads/deliverer-lock";

/**
 * A lock left unrefreshed this long (its holder touches it every HEARTBEAT_MS) belongs to a
 * process that is gone (killed, or its container stopped). Five missed heartbeats: a live holder never looks stale, and a takeover
 * after a crash waits no longer than this.
 */
export const STALE_AFTER_MS = 10_000;
/** How long a takeover of a stale lock waits before it reads back whose rename won. */
const TAKEOVER_SETTLE_MS = 250;

/** The deliverer's lock file, beside the leads (its name is never a lead's). */
export function delivererLockPath(leadsFolder: string): string {
  return join(leadsFolder, "deliverer.lock");
}

interface Holder {
  token: string;
  /** ISO time the holder took the lock: for the operator (`npm run leads -- --health`). */
  since: string;
}

export interface LockHolder extends Holder {
  /** Milliseconds since the holder's last heartbeat. */
  heartbeatAgeMs: number;
  stale: boolean;
}

/** Who holds the lock at `path` and how fresh its heartbeat is; null when nobody does. */
export async function readFolderLockHolder(
  path: string,
  options: { staleAfterMs?: number; now?: () => number } = {},
): Promise<LockHolder | null> {
  const { staleAfterMs = STALE_AFTER_MS, now = Date.now } = options;
  let text: string;
  let mtimeMs: number;
  try {
    const info = await lstat(path);
    if (!info.isFile()) return null;
    mtimeMs = info.mtimeMs;
    text = await readFile(path, "utf8");
  } catch {
    return null;
  }
  let holder: Partial<Holder> = {};
  try {
    holder = JSON.parse(text) as Partial<Holder>;
  } catch {
    // a holder still writing its name, or a damaged file: its age alone decides
  }
  const heartbeatAgeMs = Math.max(0, now() - mtimeMs);
  return {
    token: typeof holder.token === "string" ? holder.token : "",
    since: typeof holder.since === "string" ? holder.since : "",
    heartbeatAgeMs,
    stale: heartbeatAgeMs > staleAfterMs,
  };
}

/**
 * One deliverer per store folder: whoever holds `path`. The lock names its holder by a random
 * token made when this process started, never by process id or host name: two containers
 * that look identical (both PID 1, one host name) are still two holders. The holder touches
 * the file every HEARTBEAT_MS; another process takes it over only once that heartbeat is older
 * than `staleAfterMs`.
 */
export function createFolderDelivererLock(options: {
  path: string;
  staleAfterMs?: number;
  now?: () => number;
}): DelivererLock {
  const { path, staleAfterMs = STALE_AFTER_MS, now = Date.now } = options;
  const me: Holder = { token: randomUUID(), since: new Date(now()).toISOString() };

  const holds = async () => (await readFolderLockHolder(path, { staleAfterMs, now }))?.token === me.token;

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
      const holder = await readFolderLockHolder(path, { staleAfterMs, now });
      if (holder?.token === me.token) return true;
      // A holder with no readable name gets a short grace: it may be writing it right now.
      const gone = holder === null || holder.stale || (holder.token === "" && holder.heartbeatAgeMs > 2_000);
      if (!gone) return false;
      const temporary = `${path}.${me.token}`;
      await writeFile(temporary, JSON.stringify(me), { mode: 0o600 });
      await rename(temporary, path);
      // Two processes taking over at once: the last rename wins. Reading it back only after a
      // pause lets a rival that saw the same stale lock land its rename first, so the loser
      // never sends in between.
      await new Promise((resolve) => setTimeout(resolve, TAKEOVER_SETTLE_MS));
      return holds();
    },

    async heartbeat() {
      const holder = await readFolderLockHolder(path, { staleAfterMs, now });
      // The file is gone (its folder deleted and made again): nobody else holds it, take it back.
      if (holder === null) return this.acquire();
      if (holder.token !== me.token) return false;
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
