/** The double-submit memory of this process: an enquiry run once per content hash. */
import { createHmac, randomBytes } from "node:crypto";
import type { Enquiry } from "~/lead-parts/enquiry";

/**
 * The double-submit memory: an enquiry is remembered by a keyed hash of its content (HMAC-SHA256
 * under a random key of this process), so a double click, a resubmitted page or a retry after a
 * lost response is kept once, and the memory holds nothing about the person who wrote it.
 */
export interface MemorySubmissions<T> {
  /**
   * Runs `task` once per key. A second call with the same key while the first runs, or after it
   * produced a result worth keeping, gets that result instead of running again, unless
   * `stillHolds` says the result no longer stands (its lead was erased or removed): then the
   * task runs again. `replicated`, when given, runs it in the replicated memory (held by every replica) instead
   * (with DATABASE_URL); it answers null when that memory cannot be used now.
   */
  run(
    key: string,
    task: () => Promise<T>,
    stillHolds?: (result: T) => Promise<boolean>,
    replicated?: ReplicatedRun<T>,
  ): Promise<{ result: T; duplicate: boolean }>;
  size(): number;
}

/** Runs a task once across replicas: its outcome (a duplicate: another replica's), or null. */
export type ReplicatedRun<T> = (task: () => Promise<T>) => Promise<{ result: T; duplicate: boolean } | null>;

const HASH_KEY = randomBytes(32);

/** The memory's key for `enquiry` within `scope` (what became of it: kept, or caught by a filter). */
export function enquiryKey(scope: string, enquiry: Enquiry): string {
  return createHmac("sha256", HASH_KEY)
    .update(`${scope}\n${JSON.stringify(enquiry)}`)
    .digest("base64url");
}

export function createMemorySubmissions<T>(options: {
  /** Whether a finished result is remembered; a failure is forgotten so a retry may run again. */
  keep: (result: T) => boolean;
  ttlMs: number;
  maxEntries?: number;
  now?: () => number;
}): MemorySubmissions<T> {
  const { keep, ttlMs, maxEntries = 5_000, now = Date.now } = options;
  type Entry = { expires: number; result: Promise<T> };
  const entries = new Map<string, Entry>();

  const prune = (time: number) => {
    for (const [key, entry] of entries) {
      if (entry.expires <= time) entries.delete(key);
    }
    while (entries.size >= maxEntries) {
      const oldest = entries.keys().next().value;
      if (oldest === undefined) break;
      entries.delete(oldest);
    }
  };

  /** Runs `task` as the one for `key`: its entry is set before anything awaits. */
  const start = async (key: string, task: () => Promise<T>, time: number, replicated?: ReplicatedRun<T>) => {
    if (entries.size >= maxEntries) prune(time);
    let elsewhere = false;
    const result = replicated
      ? replicated(task).then((outcome) => {
          if (outcome === null) return task();
          elsewhere = outcome.duplicate;
          return outcome.result;
        })
      : task();
    const entry = { expires: time + ttlMs, result };
    entries.set(key, entry);
    try {
      const value = await result;
      if (!keep(value) && entries.get(key) === entry) entries.delete(key);
      return { result: value, duplicate: elsewhere };
    } catch (error) {
      if (entries.get(key) === entry) entries.delete(key);
      throw error;
    }
  };

  return {
    async run(key, task, stillHolds = async () => true, replicated) {
      for (;;) {
        const existing = entries.get(key);
        const time = now();
        if (!existing || existing.expires <= time) return start(key, task, time, replicated);
        const result = await existing.result.catch(() => null);
        if (result !== null && (await stillHolds(result))) return { result, duplicate: true };
        if (entries.get(key) === existing) entries.delete(key);
      }
    },
    size: () => entries.size,
  };
}
