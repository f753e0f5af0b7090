import { describe, expect, it } from "vitest";
import { backoffMs } from "~/destinations/backoff";
import { judgeEmailJsAnswer } from "~/destinations/emailjs.server";
import { judgeAnswer } from "~/destinations/post-json.server";
import { type DeliveryRecord, type Lead, newLead } from "~/leads/lead";
import {
  afterAttempt,
  FIRST_RETRY_MS,
  LEAD_BACKOFF,
  MAX_RETRY_GAP_MS,
  release,
  requeue,
} from "~/leads/retry-policy";
import type { EmailJsAnswer } from "~/mail/types";

const start = new Date("2026-11-01T10:00:00Z");
const lead: Lead = newLead({
  id: "0b7c3f5e-1d2a-4c1b-9d8e-2f3a4b5c6d7e",
  destinations: ["emailjs", "webhook"],
  at: start,
  enquiry: { name: "Asha", email: "asha@example.in", countryCode: "91", phoneNumber: "98765", message: "" },
});
const record = lead.destinations.emailjs as DeliveryRecord;

const rejectedBy = (status: number): EmailJsAnswer => ({
  ok: false,
  reason: "rejected",
  detail: `EmailJS answered ${status}: text`,
  status,
});
const rejected = (status: number) => judgeEmailJsAnswer(rejectedBy(status));

describe("classifying an attempt", () => {
  it.each([400, 401, 403, 404, 412, 422])("a %i can never succeed: permanent", (status) => {
    expect(judgeEmailJsAnswer(rejectedBy(status))).toMatchObject({ ok: false, retry: false });
  });

  it.each([
    ["a 500", rejected(500)],
    ["a 503", rejected(503)],
    ["a 429 (rate limit)", rejected(429)],
    ["no answer (status 0)", rejected(0)],
    ["a network error", { ok: false, reason: "rejected", detail: "Error: connect ECONNREFUSED" }],
    ["a timeout", { ok: false, reason: "timeout", detail: "no answer within 10000 ms" }],
  ] as Array<[string, EmailJsAnswer]>)("%s is temporary: retry", (_label, result) => {
    expect(judgeEmailJsAnswer(result)).toMatchObject({ ok: false, retry: true });
  });

  it("a 2xx is sent", () => {
    expect(judgeEmailJsAnswer({ ok: true })).toEqual({ ok: true });
  });
});

describe("backoff", () => {
  it("retries first within 10 s, then doubles, never more than 15 min apart", () => {
    const most = () => 0.999_999;
    const least = () => 0;
    expect(backoffMs(1, LEAD_BACKOFF, { random: most })).toBeLessThanOrEqual(FIRST_RETRY_MS);
    expect(backoffMs(1, LEAD_BACKOFF, { random: least })).toBe(FIRST_RETRY_MS / 2);
    expect([1, 2, 3, 4, 5].map((attempt) => backoffMs(attempt, LEAD_BACKOFF, { random: () => 1 }))).toEqual([
      10_000, 20_000, 40_000, 80_000, 160_000,
    ]);
    expect(backoffMs(8, LEAD_BACKOFF, { random: () => 1 })).toBe(MAX_RETRY_GAP_MS);
    expect(backoffMs(40, LEAD_BACKOFF, { random: () => 1 })).toBe(MAX_RETRY_GAP_MS);
  });

  it("spreads leads that failed together (jitter)", () => {
    const delays = new Set(Array.from({ length: 50 }, () => backoffMs(3, LEAD_BACKOFF)));
    expect(delays.size).toBeGreaterThan(10);
    for (const delay of delays) expect(delay).toBeGreaterThanOrEqual(20_000);
  });
});

describe("a destination's record after an attempt", () => {
  it("is sent on success, with the attempts counted", () => {
    expect(afterAttempt({ ...record, attempts: 1 }, { ok: true }, start)).toMatchObject({
      state: "sent",
      attempts: 2,
      lastError: null,
    });
  });

  it("is failed at once on a permanent error, with the error kept", () => {
    expect(afterAttempt(record, rejected(400), start)).toMatchObject({
      state: "failed",
      attempts: 1,
      lastError: "EmailJS answered 400: text",
    });
  });

  it("stays pending on a temporary error, due after the backoff", () => {
    const next = afterAttempt(record, rejected(503), start, () => 1);
    expect(next).toMatchObject({ state: "pending", attempts: 1, lastError: "EmailJS answered 503: text" });
    expect(Date.parse(next.nextAttemptAt) - start.getTime()).toBe(10_000);
  });

  it("retries for 72 h on a fake clock, then is failed", () => {
    let current = record;
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

  it("waits as long as a receiver's Retry-After asks when that is longer than the backoff", () => {
    const answer = judgeAnswer({ answered: true, status: 429, retryAfter: "120" }, start.getTime());
    const next = afterAttempt(record, answer, start, () => 1);
    expect(next).toMatchObject({ state: "pending", attempts: 1, lastError: "HTTP 429" });
    expect(Date.parse(next.nextAttemptAt) - start.getTime()).toBe(120_000);
  });

  it("fails at once on a webhook's 410 or a redirect, never following it", () => {
    for (const status of [410, 301]) {
      const answer = judgeAnswer({ answered: true, status }, start.getTime());
      expect(afterAttempt(record, answer, start)).toMatchObject({ state: "failed", attempts: 1 });
    }
  });

  it("a retried lead is due now with a fresh 72 h at its failed destinations only", () => {
    const later = new Date("2026-11-10T00:00:00Z");
    const failed: Lead = {
      ...lead,
      state: "failed",
      destinations: {
        emailjs: { ...record, state: "failed", attempts: 3 },
        webhook: { ...record, state: "sent", attempts: 1 },
      },
    };
    const retried = requeue(failed, later);
    expect(retried.state).toBe("pending");
    expect(retried.destinations.emailjs).toMatchObject({
      state: "pending",
      attempts: 3,
      nextAttemptAt: later.toISOString(),
      queuedAt: later.toISOString(),
    });
    expect(retried.destinations.webhook).toEqual(failed.destinations.webhook);
  });

  it("a released or retried inbox lead is due at every destination (the server drops those it has not configured)", () => {
    const later = new Date("2026-11-10T00:00:00Z");
    const inbox: Lead = { ...lead, state: "inbox", destinations: {} };
    for (const queued of [
      requeue(inbox, later),
      release({ ...inbox, state: "spam", reason: "honeypot" }, later),
    ]) {
      expect(queued.state).toBe("pending");
      expect(Object.keys(queued.destinations)).toEqual(["emailjs", "webhook"]);
    }
  });
});
