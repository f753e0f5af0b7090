/** A small in-memory queue that tries each item again with backoff for an hour, one at a time. */
import { type BackoffLimits, backoffMs } from "~/destinations/backoff";
import type { DeliveryResult } from "~/destinations/destination";

/** How long one item is tried before it is given up. */
export const QUEUE_TRY_FOR_MS = 60 * 60_000;
/** The wait after the first failed attempt, doubling up to QUEUE_MAX_RETRY_MS. */
export const QUEUE_FIRST_RETRY_MS = 10_000;
export const QUEUE_MAX_RETRY_MS = 5 * 60_000;
/** Items waiting at most; past that a new one is dropped (the receiver is down and knows enough). */
export const MAX_QUEUED = 100;

export interface RetryQueue<T> {
  /** Queues one item and returns at once: nothing the caller does ever waits for the receiver. */
  push(item: T): void;
  /** Items not delivered yet. */
  queued(): number;
  /** Starts no new attempt; resolves once the one in flight ends (the caller bounds the wait). */
  stop(): Promise<void>;
}

/** What the queue's log lines call things (`alerts`, `an alert`, `ALERT_WEBHOOK_URL`, the host): never a URL's path. */
export interface QueueWords {
  /** The line's prefix: `alerts`, `lead webhook`. */
  name: string;
  /** One item: `an alert`, `a lead.failed event`. */
  item: string;
  /** Each item: `each alert`. */
  each: string;
  /** Many items: `alerts`, `lead.failed events`. */
  items: string;
  variable: string;
  host: string;
}

interface Queued<T> {
  item: T;
  giveUpAt: number;
  attempts: number;
}

/**
 * Delivers items one at a time, in order, on its own timers, with `attempt`. An item the receiver
 * cannot take now (no answer, 408, 429, 5xx) is tried again with backoff for an hour (longer when
 * it asks with `Retry-After`); one it refuses (another 4xx, a redirect: never followed) is
 * dropped with a log line. Kept in memory only: a restart drops what waits.
 */
export function createRetryQueue<T>(options: {
  attempt: (item: T) => Promise<DeliveryResult>;
  words: QueueWords;
  log?: (line: string) => void;
  now?: () => number;
  firstRetryMs?: number;
  maxRetryMs?: number;
  tryForMs?: number;
}): RetryQueue<T> {
  const { attempt, words } = options;
  const { name, host } = words;
  const log = options.log ?? console.error;
  const now = options.now ?? Date.now;
  const {
    firstRetryMs = QUEUE_FIRST_RETRY_MS,
    maxRetryMs = QUEUE_MAX_RETRY_MS,
    tryForMs = QUEUE_TRY_FOR_MS,
  } = options;
  const backoff: BackoffLimits = { firstMs: firstRetryMs, maxMs: maxRetryMs };
  const queue: Queued<T>[] = [];
  let stopped = false;
  let running: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  /** The cause of the failure in progress, said once; empty while attempts go through. */
  let failing = "";

  const schedule = (delayMs: number) => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(pump, delayMs);
    timer.unref();
  };

  function pump() {
    if (stopped || running || queue.length === 0) return;
    running = next().finally(() => {
      running = undefined;
    });
  }

  async function next() {
    const entry = queue[0];
    if (!entry) return;
    const result = await attempt(entry.item);
    entry.attempts += 1;
    if (result.ok) {
      queue.shift();
      if (failing) log(`${name}: posted to ${host} again`);
      failing = "";
      return schedule(0);
    }
    const { cause } = result.error;
    if (!result.retry) {
      queue.shift();
      failing = "";
      log(`${name}: ${host} refused ${words.item} (${cause}), so it is dropped; check ${words.variable}`);
      return schedule(0);
    }
    const delayMs = backoffMs(entry.attempts, backoff, { retryAfterMs: result.retryAfterMs });
    if (now() + delayMs > entry.giveUpAt) {
      queue.shift();
      log(
        `${name}: gave up on ${words.item} after ${entry.attempts} attempts over an hour (${cause}); check ${host}`,
      );
      return schedule(0);
    }
    if (failing !== cause) {
      failing = cause;
      log(`${name}: cannot post to ${host} (${cause}); ${words.each} is tried again for an hour`);
    }
    schedule(delayMs);
  }

  return {
    push(item) {
      if (stopped) return;
      if (queue.length >= MAX_QUEUED) {
        log(`${name}: ${MAX_QUEUED} ${words.items} wait for ${host} already, so a new one is dropped`);
        return;
      }
      queue.push({ item, giveUpAt: now() + tryForMs, attempts: 0 });
      pump();
    },
    queued: () => queue.length,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
