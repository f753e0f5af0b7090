export interface IdempotencyStore<T> {
  /**
   * Runs `task` once per key. A second call with the same key while the first runs, or after
   * it produced a result worth keeping, gets that result instead of running again.
   */
  run(key: string, task: () => Promise<T>): Promise<{ result: T; duplicate: boolean }>;
  size(): number;
}

export function createIdempotencyStore<T>(options: {
  /** Whether a finished result is remembered; a failure is forgotten so a retry may run again. */
  keep: (result: T) => boolean;
  ttlMs: number;
  maxEntries?: number;
  now?: () => number;
}): IdempotencyStore<T> {
  const { keep, ttlMs, maxEntries = 5_000, now = Date.now } = options;
  const entries = new Map<string, { expires: number; result: Promise<T> }>();

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

  return {
    async run(key, task) {
      const time = now();
      const existing = entries.get(key);
      if (existing && existing.expires > time) return { result: await existing.result, duplicate: true };
      if (entries.size >= maxEntries) prune(time);
      const result = task();
      const entry = { expires: time + ttlMs, result };
      entries.set(key, entry);
      try {
        const value = await result;
        if (!keep(value) && entries.get(key) === entry) entries.delete(key);
        return { result: value, duplicate: false };
      } catch (error) {
        if (entries.get(key) === entry) entries.delete(key);
        throw error;
      }
    },
    size: () => entries.size,
  };
}
