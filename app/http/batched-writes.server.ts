/**
 * What beacons bring, written in batches: a beacon's metrics and counts are queued, and the queue
 * is written every BATCH_MS and when the server stops, so no beacon costs a write of its own.
 * Why a beacon is answered before its write: docs/decisions/052-beacon-before-the-app.md.
 */

/** How long a beacon's records wait for their write at most (and what a crash can lose). */
export const BATCH_MS = 1_000;
/** The most records a queue holds: past it, a beacon's records are dropped (said once in the log). */
export const MAX_QUEUED = 20_000;

export interface BatchedWrites<T> {
  /** Queues `items` for the next write; false when the queue is full and they were dropped. */
  add(items: readonly T[]): boolean;
  /** Writes what is queued now; resolves once it and every write before it are done. */
  flush(): Promise<void>;
}

export function createBatchedWrites<T>(options: {
  /** What the queue holds, for its log line (`field metrics`, `campaign counts`). */
  name: string;
  /** Writes a batch durably; it logs its own failures (the stores do). */
  write: (items: T[]) => Promise<unknown>;
  batchMs?: number;
  maxQueued?: number;
  log?: (line: string) => void;
}): BatchedWrites<T> {
  const { name, write, batchMs = BATCH_MS, maxQueued = MAX_QUEUED, log = console.error } = options;
  let queued: T[] = [];
  /** Records handed to a write not finished yet: they count against the limit too. */
  let writing = 0;
  let timer: NodeJS.Timeout | undefined;
  let written: Promise<void> = Promise.resolve();
  let dropped = 0;

  const flush = (): Promise<void> => {
    clearTimeout(timer);
    timer = undefined;
    const batch = queued;
    queued = [];
    if (batch.length === 0) return written;
    writing += batch.length;
    written = written
      .then(() => write(batch))
      .then(
        () => {},
        () => {},
      )
      .finally(() => {
        writing -= batch.length;
      });
    return written;
  };

  return {
    add(items) {
      if (writing + queued.length + items.length > maxQueued) {
        if (dropped === 0)
          log(
            `beacons: the ${name} waiting for their write reached ${maxQueued} records; what beacons bring is dropped until the store keeps up`,
          );
        dropped += 1;
        return false;
      }
      if (dropped > 0) {
        log(`beacons: the ${name} are queued again; ${dropped} beacon(s) were dropped meanwhile`);
        dropped = 0;
      }
      queued.push(...items);
      // The timer does not hold the process open: the server flushes as it stops.
      timer ??= setTimeout(flush, batchMs).unref();
      return true;
    },
    flush,
  };
}
