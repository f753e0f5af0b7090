import { describe, expect, it } from "vitest";
import { createIdempotencyStore } from "~/enquiry/idempotency.server";
import { clientKey, createRateLimiter } from "~/enquiry/rate-limit.server";

describe("rate limiter", () => {
  it("allows `limit` enquiries per window per client, then refuses until the window ends", () => {
    let time = 0;
    const limiter = createRateLimiter({ limit: 2, windowMs: 1000, now: () => time });
    expect([limiter.consume("a"), limiter.consume("a"), limiter.consume("a")]).toEqual([true, true, false]);
    expect(limiter.consume("b")).toBe(true);
    time = 999;
    expect(limiter.consume("a")).toBe(false);
    time = 1000;
    expect(limiter.consume("a")).toBe(true);
  });

  it("is off with a limit of 0", () => {
    const limiter = createRateLimiter({ limit: 0, windowMs: 1000 });
    for (let index = 0; index < 100; index += 1) expect(limiter.consume("a")).toBe(true);
    expect(limiter.size()).toBe(0);
  });

  it("stays bounded: expired windows are swept and the oldest dropped past the cap", () => {
    let time = 0;
    const limiter = createRateLimiter({ limit: 1, windowMs: 1000, maxClients: 100, now: () => time });
    for (let index = 0; index < 500; index += 1) limiter.consume(`client-${index}`);
    expect(limiter.size()).toBeLessThanOrEqual(100);
    expect(limiter.consume("client-499")).toBe(false);
    time = 1000;
    limiter.consume("fresh");
    expect(limiter.size()).toBe(1);
  });
});

describe("clientKey", () => {
  const request = (forwarded?: string) =>
    new Request("http://localhost/", { headers: forwarded ? { "X-Forwarded-For": forwarded } : {} });

  it("shares one budget unless the operator trusts a proxy", () => {
    expect(clientKey(request("203.0.113.7"), false)).toBe("unknown");
    expect(clientKey(request(), true)).toBe("unknown");
  });

  it("uses the first X-Forwarded-For address behind a trusted proxy", () => {
    expect(clientKey(request(" 203.0.113.7 , 10.0.0.1"), true)).toBe("203.0.113.7");
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
