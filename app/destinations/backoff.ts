/**
 * Backoff: the one rule for how long a failed attempt waits before the next one, used by every
 * loop that retries (a lead's delivery, the alerts, `lead.failed` events, erasure events, the
 * outcomes the store has not taken), each with its own limits.
 */

/** One loop's limits: the first wait, doubled after each failure up to `maxMs`. */
export interface BackoffLimits {
  /** The wait after the first failed attempt. */
  firstMs: number;
  /** The longest wait the doubling reaches. */
  maxMs: number;
  /**
   * Between half and all of the wait, at random, so attempts that failed together do not
   * retry together (a lead's delivery: many leads fail at once when a destination is down).
   */
  jitter?: boolean;
  /** The longest `Retry-After` honoured; none: a receiver's `Retry-After` as it came (already capped). */
  maxRetryAfterMs?: number;
}

/**
 * The wait after the `failures`-th failed attempt in a row: `firstMs` doubling each time, capped
 * at `maxMs`, with jitter when the limits ask for it, and never shorter than a receiver's
 * `Retry-After` (`retryAfterMs`, itself at most `maxRetryAfterMs`).
 */
export function backoffMs(
  failures: number,
  limits: BackoffLimits,
  options: { retryAfterMs?: number; random?: () => number } = {},
): number {
  const full = Math.min(limits.maxMs, limits.firstMs * 2 ** Math.max(0, failures - 1));
  const random = options.random ?? Math.random;
  const wait = limits.jitter ? Math.round(full * (0.5 + random() / 2)) : full;
  const retryAfterMs = Math.min(
    options.retryAfterMs ?? 0,
    limits.maxRetryAfterMs ?? Number.POSITIVE_INFINITY,
  );
  return Math.max(wait, retryAfterMs);
}
