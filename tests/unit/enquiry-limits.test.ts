import { createHash } from "node:crypto";
import { RateLimiterMemory } from "rate-limiter-flexible";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createEnquiryLimits, takeEnquiryUnits } from "~/enquiry/limits.server";
import { createMemorySubmissions, enquiryKey } from "~/enquiry/memory-submissions.server";
import { createClientResolver, type TrustProxy } from "~/http/client-address.server";
import { createLimit, type Limit, type LimitStore } from "~/http/limits.server";
import { gate } from "../support/gate";

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date", "setTimeout", "clearTimeout"] });
  vi.setSystemTime(0);
});
afterEach(() => {
  vi.useRealTimers();
});

const allowed = async (limit: Limit, key: string) => (await limit.take(key)).allowed;

describe("a limit", () => {
  it("allows `limit` units per window per key, then refuses with the seconds until the window frees", async () => {
    const limit = createLimit({ name: "per-client budget", limit: 2, windowSeconds: 600 });
    expect([await allowed(limit, "a"), await allowed(limit, "a"), await allowed(limit, "a")]).toEqual([
      true,
      true,
      false,
    ]);
    expect(await allowed(limit, "b")).toBe(true);
    vi.advanceTimersByTime(1_500);
    expect(await limit.take("a")).toEqual({
      allowed: false,
      retryAfterSeconds: 599,
      by: "per-client budget",
    });
    vi.advanceTimersByTime(598_499);
    expect(await limit.take("a")).toEqual({ allowed: false, retryAfterSeconds: 1, by: "per-client budget" });
    vi.advanceTimersByTime(1);
    expect(await allowed(limit, "a")).toBe(true);
  });

  it("passes at most its limit of simultaneous takes", async () => {
    const limit = createLimit({ name: "throttle", limit: 1, windowSeconds: 60 });
    const answers = await Promise.all(Array.from({ length: 20 }, () => limit.take("198.51.100.1")));
    expect(answers.filter((answer) => answer.allowed)).toHaveLength(1);
    const flood = createLimit({ name: "flood level", limit: 5, windowSeconds: 600 });
    const takes = await Promise.all(Array.from({ length: 30 }, () => flood.take("site")));
    expect(takes.filter((answer) => answer.allowed)).toHaveLength(5);
  });

  it("counts no refused try, and a unit given back frees its place once, never in a later window", async () => {
    const limit = createLimit({ name: "per-client budget", limit: 2, windowSeconds: 600 });
    const first = await limit.take("a");
    await limit.take("a");
    for (let index = 0; index < 5; index += 1) expect(await allowed(limit, "a")).toBe(false);
    if (!first.allowed) throw new Error("the first take was refused");
    await first.giveBack();
    await first.giveBack();
    expect([await allowed(limit, "a"), await allowed(limit, "a")]).toEqual([true, false]);

    const late = await limit.take("b");
    vi.advanceTimersByTime(600_000);
    if (late.allowed) await late.giveBack();
    expect([await allowed(limit, "b"), await allowed(limit, "b"), await allowed(limit, "b")]).toEqual([
      true,
      true,
      false,
    ]);
  });

  it("is off with a limit of 0", async () => {
    const limit = createLimit({ name: "throttle", limit: 0, windowSeconds: 0 });
    for (let index = 0; index < 100; index += 1) expect(await allowed(limit, "a")).toBe(true);
  });

  it("takes its counters from the store it is given, with its name as the key prefix", async () => {
    const made: Array<{ keyPrefix: string; points: number; duration: number }> = [];
    const store: LimitStore = {
      limiter: (options) => {
        made.push(options);
        return new RateLimiterMemory(options);
      },
    };
    const limit = createLimit({ name: "per-client budget", limit: 3, windowSeconds: 600, store });
    await limit.take("a");
    expect(made).toEqual([{ keyPrefix: "per-client-budget", points: 3, duration: 600 }]);
  });

  it("keeps at most maxKeys clients in memory under ten times as many new ones, and a refused client stays refused", {
    timeout: 30_000,
  }, async () => {
    let memory: RateLimiterMemory | undefined;
    const store: LimitStore = {
      limiter: (options) => {
        memory = new RateLimiterMemory(options);
        return memory;
      },
      maxKeys: 300,
    };
    const held = () => memory?.dump().storage.length ?? 0;
    const limit = createLimit({ name: "per-client budget", limit: 2, windowSeconds: 600, store });
    await limit.take("203.0.113.9");
    await limit.take("203.0.113.9");
    await limit.take("198.51.100.1");
    expect(await allowed(limit, "203.0.113.9")).toBe(false);
    for (let index = 0; index < 3_000; index += 1) {
      await limit.take(`flood-${index}`);
      if (index % 100 === 0) expect(held()).toBeLessThanOrEqual(300);
    }
    expect(held()).toBe(300);
    // The flood pushed out the client under its limit (that only gives budget back) but could
    // not evict the refused one into a fresh budget.
    expect(await allowed(limit, "203.0.113.9")).toBe(false);
    vi.advanceTimersByTime(600_000);
    expect(await allowed(limit, "203.0.113.9")).toBe(true);
  });

  it("lets expired windows go from memory", async () => {
    let memory: RateLimiterMemory | undefined;
    const store: LimitStore = {
      limiter: (options) => {
        memory = new RateLimiterMemory(options);
        return memory;
      },
      maxKeys: 1000,
    };
    const limit = createLimit({ name: "throttle", limit: 1, windowSeconds: 1, store });
    for (let index = 0; index < 500; index += 1) await limit.take(`client-${index}`);
    expect(memory?.dump().storage).toHaveLength(500);
    vi.advanceTimersByTime(1000);
    expect(memory?.dump().storage).toHaveLength(0);
  });
});

describe("enquiry limits", () => {
  const make = () =>
    createEnquiryLimits({
      ENQUIRY_RATE_LIMIT: 2,
      ENQUIRY_RATE_WINDOW: 600,
      ENQUIRY_FLOOD_LIMIT: 5,
      ENQUIRY_THROTTLE: 0,
    });
  const send = async (limits: ReturnType<typeof make>, client: string | null) => {
    const allowance = await takeEnquiryUnits(limits, client, { throttle: true });
    return allowance.allowed ? { allowed: true } : allowance;
  };

  it("refuses nobody without a known address below the flood level, and names the flood level past it", async () => {
    const limits = make();
    for (let index = 0; index < 5; index += 1) expect((await send(limits, null)).allowed).toBe(true);
    vi.advanceTimersByTime(60_000);
    expect(await send(limits, null)).toEqual({ allowed: false, retryAfterSeconds: 540, by: "flood level" });
    expect(await send(limits, "203.0.113.1")).toEqual({
      allowed: false,
      retryAfterSeconds: 540,
      by: "flood level",
    });
  });

  it("limits a known client on its own; its refused enquiries leave the flood level untouched", async () => {
    const limits = make();
    expect(await Promise.all([1, 2, 3, 4].map(() => send(limits, "203.0.113.1")))).toEqual([
      { allowed: true },
      { allowed: true },
      { allowed: false, retryAfterSeconds: 600, by: "per-client budget" },
      { allowed: false, retryAfterSeconds: 600, by: "per-client budget" },
    ]);
    expect((await send(limits, "203.0.113.2")).allowed).toBe(true);
    // 2 + 1 accepted so far (the refused ones gave their flood unit back): two more reach the level of 5.
    expect([await send(limits, null), await send(limits, null), await send(limits, null)]).toMatchObject([
      { allowed: true },
      { allowed: true },
      { allowed: false, by: "flood level" },
    ]);
  });

  it("gives every unit back when the enquiry is not kept", async () => {
    const limits = createEnquiryLimits({
      ENQUIRY_RATE_LIMIT: 1,
      ENQUIRY_RATE_WINDOW: 600,
      ENQUIRY_FLOOD_LIMIT: 1,
      ENQUIRY_THROTTLE: 60,
    });
    for (let index = 0; index < 3; index += 1) {
      const allowance = await takeEnquiryUnits(limits, "203.0.113.1", { throttle: true });
      expect(allowance.allowed).toBe(true);
      if (allowance.allowed) await allowance.giveBack();
    }
    expect((await takeEnquiryUnits(limits, "203.0.113.1", { throttle: true })).allowed).toBe(true);
    expect(await send(limits, "203.0.113.1")).toMatchObject({ allowed: false, by: "flood level" });
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
  beforeEach(() => {
    vi.useRealTimers();
  });

  it("runs a key once while it is in flight and after it succeeded", async () => {
    let runs = 0;
    const store = createMemorySubmissions<string>({ keep: (result) => result === "sent", ttlMs: 1000 });
    const answer = gate();
    const task = async () => {
      runs += 1;
      await answer.promise;
      return "sent";
    };
    // The second run starts while the first is still in flight.
    const both = Promise.all([store.run("k", task), store.run("k", task)]);
    answer.open();
    const [first, second] = await both;
    const third = await store.run("k", task);
    expect(runs).toBe(1);
    expect([first.duplicate, second.duplicate, third.duplicate]).toEqual([false, true, true]);
    expect(third.result).toBe("sent");
  });

  it("forgets failures so a retry runs again, and expires entries", async () => {
    let time = 0;
    let runs = 0;
    const store = createMemorySubmissions<string>({
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

  it("runs again when a remembered result no longer holds (its lead was erased)", async () => {
    let runs = 0;
    let erased = false;
    const store = createMemorySubmissions<string>({ keep: () => true, ttlMs: 60_000 });
    const task = async () => {
      runs += 1;
      return `lead-${runs}`;
    };
    const holds = async (lead: string) => !(erased && lead === "lead-1");
    expect(await store.run("k", task, holds)).toEqual({ result: "lead-1", duplicate: false });
    expect(await store.run("k", task, holds)).toEqual({ result: "lead-1", duplicate: true });
    erased = true;
    const [first, second] = await Promise.all([store.run("k", task, holds), store.run("k", task, holds)]);
    expect([first.result, second.result]).toEqual(["lead-2", "lead-2"]);
    expect(runs).toBe(2);
  });

  it("keys an enquiry by a hash under this process's own key: nothing of the person is held", () => {
    const enquiry = {
      name: "Asha",
      email: "asha@example.in",
      countryCode: "91",
      phoneNumber: "98765",
      message: "",
    };
    const key = enquiryKey("kept", enquiry);
    expect(key).toMatch(/^[\w-]{43}$/);
    expect(key).not.toBe(createHash("sha256").update(JSON.stringify(enquiry)).digest("base64url"));
    expect(enquiryKey("honeypot", enquiry)).not.toBe(key);
    expect(enquiryKey("kept", { ...enquiry })).toBe(key);
  });

  it("stays bounded", async () => {
    const store = createMemorySubmissions<string>({ keep: () => true, ttlMs: 60_000, maxEntries: 50 });
    for (let index = 0; index < 200; index += 1) await store.run(`k${index}`, async () => "sent");
    expect(store.size()).toBeLessThanOrEqual(50);
  });
});
