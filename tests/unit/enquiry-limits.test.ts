import { describe, expect, it } from "vitest";
import { createIdempotencyStore } from "~/enquiry/idempotency.server";
import { createBudget, createRateLimiter, type RateLimiter } from "~/http/budget.server";
import { createClientResolver, type TrustProxy } from "~/http/client-address.server";

/** Sends like the action does: check, and count only when it goes through. */
function send(limiter: RateLimiter, key: string): boolean {
  const verdict = limiter.check(key);
  if (verdict.allowed) limiter.record(key);
  return verdict.allowed;
}

describe("rate limiter", () => {
  it("allows `limit` enquiries per window per key, then refuses with the seconds until the window frees", () => {
    let time = 0;
    const limiter = createRateLimiter({ limit: 2, windowMs: 600_000, now: () => time });
    expect([send(limiter, "a"), send(limiter, "a"), send(limiter, "a")]).toEqual([true, true, false]);
    expect(send(limiter, "b")).toBe(true);
    time = 1_500;
    expect(limiter.check("a")).toEqual({ allowed: false, retryAfterSeconds: 599 });
    time = 599_999;
    expect(limiter.check("a")).toEqual({ allowed: false, retryAfterSeconds: 1 });
    time = 600_000;
    expect(send(limiter, "a")).toBe(true);
  });

  it("counts only what is recorded: checks alone never use a budget", () => {
    const limiter = createRateLimiter({ limit: 1, windowMs: 1000 });
    for (let index = 0; index < 50; index += 1) expect(limiter.check("a").allowed).toBe(true);
    expect(limiter.size()).toBe(0);
  });

  it("is off with a limit of 0", () => {
    const limiter = createRateLimiter({ limit: 0, windowMs: 1000 });
    for (let index = 0; index < 100; index += 1) expect(send(limiter, "a")).toBe(true);
    expect(limiter.size()).toBe(0);
  });

  it("stays at its cap under 100 000 distinct keys, and a refused client stays refused", () => {
    let time = 0;
    const limiter = createRateLimiter({ limit: 2, windowMs: 600_000, maxKeys: 1000, now: () => time });
    send(limiter, "203.0.113.9");
    send(limiter, "203.0.113.9");
    send(limiter, "198.51.100.1");
    expect(limiter.check("203.0.113.9").allowed).toBe(false);
    for (let index = 0; index < 100_000; index += 1) {
      time += 1;
      send(limiter, `flood-${index}`);
      expect(limiter.size()).toBeLessThanOrEqual(1000);
    }
    expect(limiter.size()).toBe(1000);
    // The flood pushed out the client that was under its limit (that only gives budget back)
    // but could not evict the refused one into a fresh budget.
    expect(limiter.check("203.0.113.9").allowed).toBe(false);
    time = 600_001;
    send(limiter, "fresh");
    expect(limiter.check("203.0.113.9").allowed).toBe(true);
  });

  it("sweeps expired windows", () => {
    let time = 0;
    const limiter = createRateLimiter({ limit: 1, windowMs: 1000, now: () => time });
    for (let index = 0; index < 500; index += 1) send(limiter, `client-${index}`);
    expect(limiter.size()).toBe(500);
    time = 1000;
    send(limiter, "fresh");
    expect(limiter.size()).toBe(1);
  });
});

describe("enquiry budget", () => {
  const make = () => {
    let time = 0;
    const budget = createBudget({
      perClient: { limit: 2, windowMs: 600_000 },
      site: { limit: 5, windowMs: 600_000 },
      now: () => time,
    });
    const send = (client: string | null) => {
      const verdict = budget.check(client);
      if (verdict.allowed) budget.record(client);
      return verdict;
    };
    return { send, advance: (ms: number) => (time += ms) };
  };

  it("refuses nobody without a known address below the site-wide flood level", () => {
    const { send, advance } = make();
    for (let index = 0; index < 5; index += 1) expect(send(null).allowed).toBe(true);
    advance(60_000);
    expect(send(null)).toEqual({ allowed: false, retryAfterSeconds: 540 });
    expect(send("203.0.113.1")).toEqual({ allowed: false, retryAfterSeconds: 540 });
  });

  it("limits a known client on its own, and its traffic counts towards the flood level", () => {
    const { send } = make();
    expect([send("203.0.113.1"), send("203.0.113.1"), send("203.0.113.1")].map((v) => v.allowed)).toEqual([
      true,
      true,
      false,
    ]);
    expect(send("203.0.113.2").allowed).toBe(true);
    // 2 + 1 accepted so far (the refused one did not count): two more reach the flood level of 5.
    expect([send(null), send(null), send(null)].map((v) => v.allowed)).toEqual([true, true, false]);
  });
});

describe("client address", () => {
  const clientAddress = (forwardedFor: string | undefined, trust: TrustProxy, socketAddress = "127.0.0.1") =>
    createClientResolver(trust).client({ socketAddress, forwardedFor });

  it("trusts no address with TRUST_PROXY=0", () => {
    expect(clientAddress("203.0.113.7", 0)).toBeNull();
  });

  it("takes the entry the operator's proxy appended, never one the client wrote", () => {
    // The client wrote the first two; one proxy appended the address it saw.
    expect(clientAddress("198.51.100.7, 203.0.113.66, 192.0.2.10", 1)).toBe("192.0.2.10");
    // Two proxies: the second appended the first proxy's address.
    expect(clientAddress("198.51.100.7, 192.0.2.10, 10.0.0.2", 2)).toBe("192.0.2.10");
    expect(clientAddress(" 2001:DB8::1 ", 1)).toBe("2001:db8::1");
  });

  it("has no address when the header is shorter than the proxies in front or not an address", () => {
    expect(clientAddress(undefined, 1)).toBeNull();
    expect(clientAddress("192.0.2.10", 2)).toBeNull();
    expect(clientAddress("198.51.100.7, unknown", 1)).toBeNull();
  });

  describe("with the proxies' addresses and subnets", () => {
    const proxies = ["10.0.0.0/8", "127.0.0.1", "fd00::/8"];

    it("reads X-Forwarded-For from a listed proxy: the right-most address not in the list", () => {
      expect(clientAddress("198.51.100.7, 203.0.113.9", proxies, "10.1.2.3")).toBe("203.0.113.9");
      // A chain of the operator's proxies is skipped; what the client wrote stays ignored.
      expect(clientAddress("198.51.100.7, 203.0.113.9, 10.0.0.5", proxies, "127.0.0.1")).toBe("203.0.113.9");
      expect(clientAddress("2001:db8::7", proxies, "fd12::1")).toBe("2001:db8::7");
    });

    it("knows an IPv4 proxy on an IPv6 socket (IPv4-mapped addresses)", () => {
      expect(clientAddress("203.0.113.9", proxies, "::ffff:10.0.0.2")).toBe("203.0.113.9");
      expect(clientAddress("203.0.113.9", proxies, "::ffff:127.0.0.1")).toBe("203.0.113.9");
    });

    it("takes anyone else by its socket address, whatever it forwards", () => {
      expect(clientAddress("203.0.113.9", proxies, "198.51.100.20")).toBe("198.51.100.20");
      expect(clientAddress("203.0.113.9", proxies, "::ffff:198.51.100.20")).toBe("198.51.100.20");
      expect(clientAddress(undefined, proxies, "2001:DB8::20")).toBe("2001:db8::20");
    });

    it("has no address when a hop is not an address; a proxy with no header is its own client", () => {
      expect(clientAddress("198.51.100.7, unknown", proxies, "10.0.0.1")).toBeNull();
      expect(clientAddress(undefined, proxies, "10.0.0.1")).toBe("10.0.0.1");
    });

    it("trusts X-Forwarded-Proto and X-Forwarded-Host from listed peers only", () => {
      const resolver = createClientResolver(proxies);
      expect(resolver.trusts("10.9.9.9", 0)).toBe(true);
      expect(resolver.trusts("::ffff:10.9.9.9", 0)).toBe(true);
      expect(resolver.trusts("198.51.100.20", 0)).toBe(false);
      expect(createClientResolver(1).trusts("198.51.100.20", 0)).toBe(true);
      expect(createClientResolver(0).trusts("127.0.0.1", 0)).toBe(false);
    });
  });
});

describe("idempotency store", () => {
  it("runs a key once while it is in flight and after it succeeded", async () => {
    let runs = 0;
    const store = createIdempotencyStore<string>({ keep: (result) => result === "sent", ttlMs: 1000 });
    const task = async () => {
      runs += 1;
      await new Promise((resolve) => setTimeout(resolve, 10));
      return "sent";
    };
    const [first, second] = await Promise.all([store.run("k", task), store.run("k", task)]);
    const third = await store.run("k", task);
    expect(runs).toBe(1);
    expect([first.duplicate, second.duplicate, third.duplicate]).toEqual([false, true, true]);
    expect(third.result).toBe("sent");
  });

  it("forgets failures so a retry runs again, and expires entries", async () => {
    let time = 0;
    let runs = 0;
    const store = createIdempotencyStore<string>({
      keep: (result) => result === "sent",
      ttlMs: 1000,
      now: () => time,
    });
    const counted = (result: string) => async () => {
      runs += 1;
      return result;
    };
    await store.run("k", counted("failed"));
    await store.run("k", counted("sent"));
    await store.run("k", counted("sent"));
    expect(runs).toBe(2);
    time = 1000;
    await store.run("k", counted("sent"));
    expect(runs).toBe(3);
  });

  it("stays bounded", async () => {
    const store = createIdempotencyStore<string>({ keep: () => true, ttlMs: 60_000, maxEntries: 50 });
    for (let index = 0; index < 200; index += 1) await store.run(`k${index}`, async () => "sent");
    expect(store.size()).toBeLessThanOrEqual(50);
  });
});
