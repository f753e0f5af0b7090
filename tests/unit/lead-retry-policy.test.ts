import { describe, expect, it } from "vitest";
import type { Lead } from "~/leads/lead";
import {
  afterAttempt,
  classify,
  FIRST_RETRY_MS,
  MAX_RETRY_GAP_MS,
  requeue,
  retryDelayMs,
} from "~/leads/retry-policy";
import type { SendResult } from "~/mail/types";

const start = new Date("2026-11-01T10:00:00Z");
const lead: Lead = {
  id: "0b7c3f5e-1d2a-4c1b-9d8e-2f3a4b5c6d7e",
  receivedAt: start.toISOString(),
  state: "pending",
  attempts: 0,
  lastError: null,
  nextAttemptAt: start.toISOString(),
  queuedAt: start.toISOString(),
  enquiry: { name: "Asha", email: "asha@example.in", countryCode: "91", phoneNumber: "98765", message: "" },
};

const rejected = (status: number): SendResult => ({
  ok: false,
  reason: "rejected",
  detail: `EmailJS answered ${status}: text`,
  status,
});

describe("classifying an attempt", () => {
  it.each([400, 401, 403, 404, 412, 422])("a %i can never succeed: permanent", (status) => {
    expect(classify(rejected(status))).toBe("permanent");
  });

  it.each([
    ["a 500", rejected(500)],
    ["a 503", rejected(503)],
    ["a 429 (rate limit)", rejected(429)],
    ["no answer (status 0)", rejected(0)],
    ["a network error", { ok: false, reason: "rejected", detail: "Error: connect ECONNREFUSED" }],
    ["a timeout", { ok: false, reason: "timeout", detail: "no answer within 10000 ms" }],
  ] as Array<[string, SendResult]>)("%s is temporary: retry", (_label, result) => {
    expect(classify(result)).toBe("retry");
  });

  it("a 2xx is sent", () => {
    expect(classify({ ok: true })).toBe("sent");
  });
});

describe("backoff", () => {
  it("retries first within 10 s, then doubles, never more than 15 min apart", () => {
    const most = () => 0.999_999;
    const least = () => 0;
    expect(retryDelayMs(1, most)).toBeLessThanOrEqual(FIRST_RETRY_MS);
    expect(retryDelayMs(1, least)).toBe(FIRST_RETRY_MS / 2);
    expect([1, 2, 3, 4, 5].map((attempt) => retryDelayMs(attempt, () => 1))).toEqual([
      10_000, 20_000, 40_000, 80_000, 160_000,
    ]);
    expect(retryDelayMs(8, () => 1)).toBe(MAX_RETRY_GAP_MS);
    expect(retryDelayMs(40, () => 1)).toBe(MAX_RETRY_GAP_MS);
  });

  it("spreads leads that failed together (jitter)", () => {
    const delays = new Set(Array.from({ length: 50 }, () => retryDelayMs(3)));
    expect(delays.size).toBeGreaterThan(10);
    for (const delay of delays) expect(delay).toBeGreaterThanOrEqual(20_000);
  });
});

describe("a lead after an attempt", () => {
  it("is sent on success, with the attempts counted", () => {
    expect(afterAttempt({ ...lead, attempts: 1 }, { ok: true }, start)).toMatchObject({
      state: "sent",
      attempts: 2,
      lastError: null,
    });
  });

  it("is failed at once on a permanent error, with the error kept", () => {
    expect(afterAttempt(lead, rejected(400), start)).toMatchObject({
      state: "failed",
      attempts: 1,
      lastError: "EmailJS answered 400: text",
    });
  });

  it("stays pending on a temporary error, due after the backoff", () => {
    const next = afterAttempt(lead, rejected(503), start, () => 1);
    expect(next).toMatchObject({ state: "pending", attempts: 1, lastError: "EmailJS answered 503: text" });
    expect(Date.parse(next.nextAttemptAt) - start.getTime()).toBe(10_000);
  });

  it("retries for 72 h on a fake clock, then is failed", () => {
    let current = lead;
    let time = start.getTime();
    while (current.state === "pending") {
      time = Date.parse(current.nextAttemptAt);
      current = afterAttempt(current, rejected(500), new Date(time), () => 1);
    }
    expect(current.state).toBe("failed");
    expect(current.lastError).toMatch(/gave up after 72 h/);
    const hours = (time - start.getTime()) / 3_600_000;
    expect(hours).toBeGreaterThan(71.7);
    expect(hours).toBeLessThanOrEqual(72);
    // 10 s doubling to 15 min (7 attempts in the first ~21 min), then one every 15 min.
    expect(current.attempts).toBe(7 + Math.floor((72 * 60 - 21.25) / 15) + 1);
  });

  it("a retried lead is due now with a fresh 72 h", () => {
    const later = new Date("2026-11-10T00:00:00Z");
    expect(requeue({ ...lead, state: "failed", attempts: 3 }, later)).toMatchObject({
      state: "pending",
      attempts: 3,
      nextAttemptAt: later.toISOString(),
      queuedAt: later.toISOString(),
    });
  });
});
