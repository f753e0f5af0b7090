import { randomBytes } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MAX_RETRY_AFTER_MS, parseRetryAfter } from "~/destinations/post-json.server";
import { createWebhookSender } from "~/destinations/webhook.server";
import { leadErased, leadFailed, leadReceived } from "~/destinations/webhook-events";
import { closedPort, startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver";

const secret = `whsec_${randomBytes(32).toString("base64")}`;

const lead = {
  id: "0b7f8c1e-2a4d-4c6e-9f10-3a5b7c9d1e2f",
  receivedAt: "2026-03-02T09:15:30.123Z",
  enquiry: {
    name: "Asha Rao",
    email: "asha@example.in",
    countryCode: "91",
    phoneNumber: "9876543210",
    message: "We need a booking app for our clinics in Pune and Nashik, with reminders by SMS.",
  },
  source: {
    landing: "/",
    parameters: { utm_source: "google", utm_medium: "cpc", utm_campaign: "spring-launch", gclid: "Cj0KCQiA" },
  },
  privacyNotice: { version: "2026-11-26", language: "hi", sha256: "ab".repeat(32) },
};

let receiver: WebhookReceiver;
beforeEach(async () => {
  receiver = await startWebhookReceiver({ secret });
});
afterEach(async () => {
  await receiver.close();
});

/** A clock that starts now (the receiver checks the signature's time against its own) and can be moved on. */
function clock() {
  let at = Date.now();
  return { now: () => new Date(at), advance: (ms: number) => (at += ms) };
}

describe("lead.received", () => {
  it("is a signed POST of {type, timestamp, data} with exactly the Standard Webhooks headers", async () => {
    const result = await createWebhookSender({ url: receiver.url, secret }).send(leadReceived(lead));
    expect(result).toEqual({ ok: true });
    expect(receiver.requests).toHaveLength(1);
    const [request] = receiver.requests;
    expect(request).toMatchObject({ method: "POST", path: "/hooks/leads", verified: true });
    expect(Object.keys(request?.headers ?? {}).sort()).toEqual([
      "connection",
      "content-length",
      "content-type",
      "host",
      "webhook-id",
      "webhook-signature",
      "webhook-timestamp",
    ]);
    expect(request?.headers).toMatchObject({
      "content-type": "application/json",
      "webhook-id": `msg_${lead.id}_received`,
      "webhook-timestamp": expect.stringMatching(/^\d{10}$/),
      "webhook-signature": expect.stringMatching(/^v1,[A-Za-z0-9+/]{43}=$/),
    });
    expect(Number(request?.headers["content-length"])).toBe(Buffer.byteLength(request?.body ?? ""));
    expect(request?.body).toBe(
      JSON.stringify({
        type: "lead.received",
        timestamp: "2026-03-02T09:15:30.123Z",
        data: {
          id: lead.id,
          reference: "NRM-1DZR-R7HA",
          receivedAt: "2026-03-02T09:15:30.123Z",
          name: "Asha Rao",
          email: "asha@example.in",
          countryCode: "91",
          phoneNumber: "9876543210",
          message: lead.enquiry.message,
          source: lead.source,
          sourceSummary: "google / cpc / spring-launch",
          clickId: "gclid=Cj0KCQiA",
          privacyNotice: lead.privacyNotice,
        },
      }),
    );
    // The figure the issue asks for: one typical lead on the wire (request line, headers, body).
    console.info(`lead.received request: ${request?.bytes} bytes (body ${request?.body.length})`);
    expect(request?.bytes).toBeLessThan(1500);
  });

  it("carries null for a lead stored before sources and privacy notice records were kept", async () => {
    const { body } = leadReceived({ ...lead, source: undefined, privacyNotice: undefined });
    expect(JSON.parse(body).data).toMatchObject({
      source: null,
      sourceSummary: "unknown",
      clickId: null,
      privacyNotice: null,
    });
  });
});

describe("retries", () => {
  it("repeats the same webhook-id and body, signed afresh at the time of each attempt (500, then 200)", async () => {
    const time = clock();
    const sender = createWebhookSender({ url: receiver.url, secret, now: time.now });
    receiver.answer({ status: 500 });
    const message = leadReceived(lead);
    expect(await sender.send(message)).toEqual({
      ok: false,
      retry: true,
      error: { status: 500, cause: "HTTP 500" },
    });
    time.advance(90_000);
    expect(await sender.send(message)).toEqual({ ok: true });
    const [first, second] = receiver.requests;
    expect(receiver.requests.map((request) => request.verified)).toEqual([true, true]);
    expect(second?.headers["webhook-id"]).toBe(first?.headers["webhook-id"]);
    expect(second?.body).toBe(first?.body);
    expect(Number(second?.headers["webhook-timestamp"]) - Number(first?.headers["webhook-timestamp"])).toBe(
      90,
    );
    expect(second?.headers["webhook-signature"]).not.toBe(first?.headers["webhook-signature"]);
  });

  it.each([408, 429, 500, 502, 503, 504])("tries again after %i", async (status) => {
    receiver.answer({ status });
    const result = await createWebhookSender({ url: receiver.url, secret }).send(leadReceived(lead));
    expect(result).toEqual({ ok: false, retry: true, error: { status, cause: `HTTP ${status}` } });
  });

  it("honours Retry-After, in seconds or as a date, up to 15 minutes", async () => {
    const time = clock();
    const sender = createWebhookSender({ url: receiver.url, secret, now: time.now });
    const date = new Date(time.now().getTime() + 120_000).toUTCString();
    receiver.answer(
      { status: 429, headers: { "retry-after": "30" } },
      { status: 429, headers: { "retry-after": date } },
      { status: 503, headers: { "retry-after": "86400" } },
    );
    const waits = [];
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const result = await sender.send(leadReceived(lead));
      waits.push(result.ok ? "sent" : result.retryAfterMs);
    }
    // An HTTP date has whole seconds: up to a second less than the two minutes asked.
    expect(waits).toEqual([30_000, expect.any(Number), MAX_RETRY_AFTER_MS]);
    expect(waits[1]).toBeGreaterThan(118_000);
    expect(waits[1]).toBeLessThanOrEqual(120_000);
  });

  it("gives up on an answer that does not arrive within the timeout, and tries again", async () => {
    receiver.answer("hang");
    const result = await createWebhookSender({ url: receiver.url, secret, timeoutMs: 300 }).send(
      leadReceived(lead),
    );
    expect(result).toEqual({ ok: false, retry: true, error: { cause: "no answer within 0.3 s" } });
    expect(receiver.requests).toHaveLength(1);
  });

  it("tries again when the receiver drops the connection unanswered", async () => {
    receiver.answer("close");
    const result = await createWebhookSender({ url: receiver.url, secret }).send(leadReceived(lead));
    expect(result).toEqual({ ok: false, retry: true, error: { cause: "connection reset (ECONNRESET)" } });
  });

  it("tries again when the connection is refused", async () => {
    const url = `http://127.0.0.1:${await closedPort()}/hooks/leads`;
    const result = await createWebhookSender({ url, secret }).send(leadReceived(lead));
    expect(result).toEqual({ ok: false, retry: true, error: { cause: "connection refused (ECONNREFUSED)" } });
  });
});

describe("answers that fail for good", () => {
  it.each([400, 401, 404, 410, 413, 422])(
    "fails the lead at %i, without the receiver's body",
    async (status) => {
      receiver.answer({ status });
      const result = await createWebhookSender({ url: receiver.url, secret }).send(leadReceived(lead));
      expect(result).toEqual({ ok: false, retry: false, error: { status, cause: `HTTP ${status}` } });
      expect(JSON.stringify(result)).not.toContain("do not log me");
    },
  );

  it.each([301, 302, 303, 307, 308])("never follows a redirect (%i)", async (status) => {
    const elsewhere = receiver.url.replace("/hooks/leads", "/elsewhere");
    receiver.answer({ status, headers: { location: elsewhere } });
    const result = await createWebhookSender({ url: receiver.url, secret }).send(leadReceived(lead));
    expect(result).toEqual({
      ok: false,
      retry: false,
      error: { status, cause: `HTTP ${status}, a redirect (never followed)` },
    });
    expect(receiver.requests.map((request) => request.path)).toEqual(["/hooks/leads"]);
  });

  it("names neither the URL's path nor the secret in what it returns", async () => {
    const url = receiver.url.replace("/hooks/leads", "/hooks/T0KEN-in-the-path");
    const results = [];
    for (const answer of [{ status: 500 }, { status: 410 }, "close", "hang"] as const) {
      receiver.answer(answer);
      results.push(await createWebhookSender({ url, secret, timeoutMs: 300 }).send(leadReceived(lead)));
    }
    const text = JSON.stringify(results);
    expect(text).not.toContain("T0KEN");
    expect(text).not.toContain(secret.slice("whsec_".length, 20));
  });
});

describe("lead.failed and lead.erased", () => {
  it("carry the lead's id and what failed, none of the person's data", async () => {
    const sender = createWebhookSender({ url: receiver.url, secret });
    const failure = {
      leadId: lead.id,
      destination: "emailjs" as const,
      attempts: 3,
      lastError: {
        status: 412,
        cause: "EmailJS answered 412: the mail account must be reconnected in EmailJS",
      },
      failedAt: "2026-03-02T10:00:00.000Z",
    };
    expect(await sender.send(leadFailed(failure))).toEqual({ ok: true });
    expect(await sender.send(leadErased({ leadId: lead.id, erasedAt: "2026-03-05T08:00:00.000Z" }))).toEqual({
      ok: true,
    });
    const [failed, erased] = receiver.requests;
    expect(receiver.requests.every((request) => request.verified)).toBe(true);
    expect(JSON.parse(failed?.body ?? "")).toEqual({
      type: "lead.failed",
      timestamp: "2026-03-02T10:00:00.000Z",
      data: {
        id: lead.id,
        reference: "NRM-1DZR-R7HA",
        destination: "emailjs",
        attempts: 3,
        lastError: failure.lastError,
      },
    });
    expect(JSON.parse(erased?.body ?? "")).toEqual({
      type: "lead.erased",
      timestamp: "2026-03-05T08:00:00.000Z",
      data: { id: lead.id },
    });
    for (const request of [failed, erased]) {
      for (const personal of Object.values(lead.enquiry)) expect(request?.body).not.toContain(personal);
    }
    expect(erased?.headers["webhook-id"]).toBe(`msg_${lead.id}_erased`);
    // A failure after a later retry is another event: a receiver dropping repeats keeps both.
    const later = leadFailed({ ...failure, failedAt: "2026-03-04T10:00:00.000Z" });
    expect(later.id).not.toBe(failed?.headers["webhook-id"]);
    expect(leadFailed(failure).id).toBe(failed?.headers["webhook-id"]);
  });
});

describe("parseRetryAfter", () => {
  const now = Date.parse("2026-03-02T10:00:00Z");
  it.each([
    ["0", 0],
    ["120", 120_000],
    ["Mon, 02 Mar 2026 10:05:00 GMT", 300_000],
    ["Mon, 02 Mar 2026 09:00:00 GMT", 0],
    ["999999", MAX_RETRY_AFTER_MS],
    ["soon", undefined],
    ["-5", undefined],
    [undefined, undefined],
  ])("reads %j as %j ms", (value, expected) => {
    expect(parseRetryAfter(value, now)).toBe(expected);
  });
});
