export interface RateLimiter {
  /** Counts one enquiry for `client`; false when the client has used its budget for this window. */
  consume(client: string): boolean;
  /** How many clients are tracked now (for tests and diagnostics). */
  size(): number;
}

/**
 * A fixed-window counter per client, held in memory. `limit` 0 turns it off. Memory stays
 * bounded: expired windows are swept at most once per window, and past `maxClients` the
 * oldest windows are dropped first.
 */
export function createRateLimiter(options: {
  limit: number;
  windowMs: number;
  maxClients?: number;
  now?: () => number;
}): RateLimiter {
  const { limit, windowMs, maxClients = 10_000, now = Date.now } = options;
  const windows = new Map<string, { start: number; count: number }>();
  let lastSweep = now();

  const sweep = (time: number) => {
    for (const [client, window] of windows) {
      if (time - window.start >= windowMs) windows.delete(client);
    }
    lastSweep = time;
  };

  return {
    consume(client) {
      if (limit <= 0) return true;
      const time = now();
      if (time - lastSweep >= windowMs) sweep(time);
      let window = windows.get(client);
      if (!window || time - window.start >= windowMs) {
        windows.delete(client);
        if (windows.size >= maxClients) sweep(time);
        // Map keeps insertion order, so the first key is the oldest window.
        while (windows.size >= maxClients) {
          const oldest = windows.keys().next().value;
          if (oldest === undefined) break;
          windows.delete(oldest);
        }
        window = { start: time, count: 0 };
        windows.set(client, window);
      }
      if (window.count >= limit) return false;
      window.count += 1;
      return true;
    },
    size: () => windows.size,
  };
}

/**
 * Who is asking. remix-serve gives route code no socket address, so unless the operator
 * says a proxy of theirs sets X-Forwarded-For, every client shares one budget: a spoofed
 * header must never buy a fresh one.
 */
export function clientKey(request: Request, trustProxy: boolean): string {
  if (!trustProxy) return "unknown";
  const first = request.headers.get("X-Forwarded-For")?.split(",")[0]?.trim();
  return first && first.length <= 100 ? first : "unknown";
}
