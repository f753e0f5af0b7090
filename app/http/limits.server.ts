/**
 * Rate limits: named limits whose units are taken atomically, counted in memory or in a store that
 * replaces it.
 *
 * Why atomically: docs/decisions/017-atomic-limits.md.
 */
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";

/**
 * A limit takes its unit at the moment it allows a request, atomically in its store
 * (rate-limiter-flexible's `consume`), so simultaneous requests never pass more than it allows.
 * A request that is then refused by another rule, or cannot be kept, gives its unit back.
 */
export type Allowance<Name extends string = string> =
  | { allowed: true; giveBack: () => Promise<void> }
  | { allowed: false; retryAfterSeconds: number; by: Name };

export interface Limit<Name extends string = string> {
  readonly name: Name;
  /** Takes one unit for `key`; refused (and nothing taken) when its window has none left. */
  take(key: string): Promise<Allowance<Name>>;
}

/**
 * Where the counters live: one rate-limiter-flexible limiter per limit, made from the options
 * given here. Memory by default; a database store (RateLimiterPostgres with its pool and
 * `tableCreated: true`) takes its place without any caller changing.
 */
export interface LimitStore {
  limiter(options: { keyPrefix: string; points: number; duration: number }): RateLimiterAbstract;
  /** Keys one limit may hold in this process (memory); undefined when the store bounds itself. */
  maxKeys?: number;
}

/** Clients one limit remembers in memory at most. */
export const MAX_KEYS = 10_000;

export function memoryStore(maxKeys = MAX_KEYS): LimitStore {
  return { limiter: (options) => new RateLimiterMemory(options), maxKeys };
}

const UNLIMITED: Allowance<never> = { allowed: true, giveBack: async () => {} };

/** `limit` units per `windowSeconds` per key, fixed windows that start with a key's first unit; 0 is off. */
export function createLimit<Name extends string>(options: {
  name: Name;
  limit: number;
  windowSeconds: number;
  store?: LimitStore;
}): Limit<Name> {
  const { name, limit, windowSeconds, store = memoryStore() } = options;
  if (limit <= 0 || windowSeconds <= 0) return { name, take: async () => UNLIMITED };
  const limiter = store.limiter({
    keyPrefix: name.replaceAll(" ", "-"),
    points: limit,
    duration: windowSeconds,
  });
  const keys =
    store.maxKeys === undefined ? null : createKeyBound(store.maxKeys, (key) => limiter.delete(key));

  return {
    name,
    async take(key) {
      keys?.admit(key, Date.now());
      let taken: RateLimiterRes;
      try {
        taken = await limiter.consume(key);
      } catch (refusal) {
        if (!(refusal instanceof RateLimiterRes)) throw refusal;
        // The library counted the refused try; only what is allowed may count.
        const ends = Date.now() + refusal.msBeforeNext;
        keys?.note(key, ends, true);
        if (Date.now() < ends) await limiter.reward(key);
        return {
          allowed: false,
          retryAfterSeconds: Math.max(1, Math.ceil(refusal.msBeforeNext / 1000)),
          by: name,
        };
      }
      const ends = Date.now() + taken.msBeforeNext;
      const entry = keys?.note(key, ends, taken.consumedPoints >= limit);
      let given = false;
      return {
        allowed: true,
        async giveBack() {
          // Once: and never into a later window, or into a key memory already dropped (which gave all back).
          if (given || Date.now() >= ends || (keys && entry && !keys.holds(key, entry))) return;
          given = true;
          const after = await limiter.reward(key);
          keys?.note(key, ends, after.consumedPoints >= limit);
        },
      };
    },
  };
}

interface KeyEntry {
  ends: number;
}

/**
 * Bounds the keys a memory limiter holds. Keys are indexed in two insertion-ordered maps: those
 * still under the limit and those that reached it. Past `maxKeys` the expired ones go, then the
 * oldest under the limit, so a flood of new keys cannot evict a client that is being refused
 * (and give it a fresh budget) until `maxKeys` clients have each used their whole budget.
 * Dropping a key only ever gives budget back: it can never refuse anyone.
 */
function createKeyBound(maxKeys: number, drop: (key: string) => Promise<unknown>) {
  const open = new Map<string, KeyEntry>();
  const full = new Map<string, KeyEntry>();
  const forget = (key: string) => {
    open.delete(key);
    full.delete(key);
    // A memory limiter deletes at once; nothing waits on it.
    void drop(key);
  };

  return {
    /** Makes room before `key` takes a unit (synchronously, so the take stays atomic). */
    admit(key: string, now: number) {
      const known = open.get(key) ?? full.get(key);
      if (known && known.ends > now) return;
      if (known) forget(key);
      if (open.size + full.size < maxKeys) return;
      for (const keys of [open, full]) {
        for (const [other, entry] of keys) if (entry.ends <= now) forget(other);
      }
      while (open.size + full.size >= maxKeys) {
        const oldest = (open.size > 0 ? open : full).keys().next().value;
        if (oldest === undefined) return;
        forget(oldest);
      }
    },
    /** Records `key`'s window after a take or a give-back; returns its entry. */
    note(key: string, ends: number, isFull: boolean): KeyEntry {
      const entry = open.get(key) ?? full.get(key) ?? { ends };
      entry.ends = ends;
      if (isFull && open.delete(key)) full.set(key, entry);
      else if (!isFull && full.delete(key)) open.set(key, entry);
      else if (!open.has(key) && !full.has(key)) (isFull ? full : open).set(key, entry);
      return entry;
    },
    holds: (key: string, entry: KeyEntry) => (open.get(key) ?? full.get(key)) === entry,
  };
}

/**
 * Takes one unit from each limit at once (with DATABASE_URL each take is a round trip: in
 * parallel, a submit waits for one instead of one per limit); any refusal gives back what the
 * others took and names the first refusing limit in `takes` order. Allowed: one give-back for all.
 */
export async function takeEach<Name extends string>(
  takes: Array<{ limit: Limit<Name>; key: string }>,
): Promise<Allowance<Name>> {
  const settled = await Promise.allSettled(takes.map(({ limit, key }) => limit.take(key)));
  const taken: Array<() => Promise<void>> = [];
  for (const result of settled)
    if (result.status === "fulfilled" && result.value.allowed) taken.push(result.value.giveBack);
  const giveBack = async () => {
    await Promise.all(taken.splice(0).map((give) => give()));
  };
  for (const result of settled) {
    if (result.status === "rejected") {
      await giveBack();
      throw result.reason;
    }
    if (!result.value.allowed) {
      await giveBack();
      return result.value;
    }
  }
  return { allowed: true, giveBack };
}
