export type Allowance = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface RateLimiter {
  /** Whether `key` may send one more enquiry now; counts nothing. */
  check(key: string): Allowance;
  /** Counts one accepted enquiry for `key`. */
  record(key: string): void;
  /** How many keys are tracked now (for tests and diagnostics). */
  size(): number;
}

interface Window {
  start: number;
  count: number;
}

/**
 * A fixed-window counter per key, held in memory. `limit` 0 turns it off.
 *
 * Memory stays bounded at `maxKeys`. Keys are kept in two insertion-ordered maps: those still
 * under the limit and those that reached it. Past the cap the oldest window under the limit is
 * dropped first, so a flood of new keys cannot evict a client that is being refused (and give it
 * a fresh budget) until `maxKeys` clients have each used their whole budget. Dropping a key only
 * ever gives budget back: eviction can never refuse anyone.
 */
export function createRateLimiter(options: {
  limit: number;
  windowMs: number;
  maxKeys?: number;
  now?: () => number;
}): RateLimiter {
  const { limit, windowMs, maxKeys = 10_000, now = Date.now } = options;
  const open = new Map<string, Window>();
  const full = new Map<string, Window>();
  let lastSweep = now();

  const sweep = (time: number) => {
    for (const windows of [open, full]) {
      for (const [key, window] of windows) {
        if (time - window.start >= windowMs) windows.delete(key);
      }
    }
    lastSweep = time;
  };

  const current = (key: string, time: number): Window | undefined => {
    if (time - lastSweep >= windowMs) sweep(time);
    const window = open.get(key) ?? full.get(key);
    if (window && time - window.start >= windowMs) {
      open.delete(key);
      full.delete(key);
      return undefined;
    }
    return window;
  };

  const makeRoom = () => {
    while (open.size + full.size >= maxKeys) {
      // Map keeps insertion order, so the first key of each map is its oldest window.
      const oldest = open.size > 0 ? open : full;
      const key = oldest.keys().next().value;
      if (key === undefined) return;
      oldest.delete(key);
    }
  };

  return {
    check(key) {
      if (limit <= 0) return { allowed: true };
      const time = now();
      const window = current(key, time);
      if (!window || window.count < limit) return { allowed: true };
      return {
        allowed: false,
        retryAfterSeconds: Math.max(1, Math.ceil((window.start + windowMs - time) / 1000)),
      };
    },
    record(key) {
      if (limit <= 0) return;
      const time = now();
      let window = current(key, time);
      if (!window) {
        if (open.size + full.size >= maxKeys) sweep(time);
        makeRoom();
        window = { start: time, count: 0 };
        open.set(key, window);
      }
      window.count += 1;
      if (window.count >= limit && open.delete(key)) full.set(key, window);
    },
    size: () => open.size + full.size,
  };
}

/**
 * Budgets (enquiries, beacons): per client where the client is known, and one site-wide flood level
 * that holds for everyone. A `null` client (no trustworthy address) is never refused for
 * another visitor's traffic below the flood level.
 */
export type Budget = ReturnType<typeof createBudget>;

export function createBudget(options: {
  perClient: { limit: number; windowMs: number };
  site: { limit: number; windowMs: number };
  now?: () => number;
}) {
  const clients = createRateLimiter({ ...options.perClient, now: options.now });
  const site = createRateLimiter({ ...options.site, now: options.now });
  const SITE = "site";
  return {
    check(client: string | null): Allowance {
      const flood = site.check(SITE);
      if (!flood.allowed || client === null) return flood;
      return clients.check(client);
    },
    /** Call once an enquiry is accepted: refused, invalid or failed ones never count. */
    record(client: string | null): void {
      site.record(SITE);
      if (client !== null) clients.record(client);
    },
    clients,
  };
}
