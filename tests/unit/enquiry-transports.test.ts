import { EmailJSResponseStatus, type send } from "@emailjs/nodejs";
import { describe, expect, it, vi } from "vitest";
import { parseEnv } from "~/env.server";
import { createEmailJsTransport, EMAILJS_TIMEOUT_MS } from "~/mail/emailjs-transport.server";
import { selectTransport } from "~/mail/transport.server";

const enquiry = {
  name: "Asha Rao",
  email: "asha@example.in",
  countryCode: "91",
  phoneNumber: "9876543210",
  message: 'Line one\nLine two, with "quotes" and नमस्ते',
};

const config = {
  serviceId: "service_abc",
  templateId: "template_xyz",
  publicKey: "public-key",
  privateKey: "very-secret-private-key",
  origin: "127.0.0.2",
  recipient: "Nirmaan Digital team",
};

type SendFn = typeof send;

describe("EmailJS transport", () => {
  it("sends the thirteen template params with both keys", async () => {
    const sendEmail = vi.fn<SendFn>(async () => new EmailJSResponseStatus(200, "OK"));
    const source = { landing: "/", parameters: { utm_source: "google", utm_medium: "cpc", gclid: "Cj0KCQ" } };
    const privacyNotice = { version: "2026-11-26", language: "hi", sha256: "0f".repeat(32) };
    const result = await createEmailJsTransport(config, sendEmail).send(
      enquiry,
      source,
      privacyNotice,
      "NRM-7KQ2-M9XD",
    );
    expect(result).toEqual({ ok: true });
    expect(sendEmail).toHaveBeenCalledExactlyOnceWith(
      "service_abc",
      "template_xyz",
      {
        to_name: "Nirmaan Digital team",
        name: "Asha Rao",
        email: "asha@example.in",
        countryCode: "91",
        phoneNumber: "9876543210",
        message: enquiry.message,
        from_name: "Asha Rao",
        source: "google / cpc",
        click_id: "gclid=Cj0KCQ",
        privacy_notice_version: "2026-11-26",
        privacy_notice_language: "hi",
        notice_version: "2026-11-26 hi",
        reference: "NRM-7KQ2-M9XD",
      },
      { publicKey: "public-key", privateKey: "very-secret-private-key" },
    );
  });

  it("sends the privacy notice's parameters empty when the sender's privacy notice is not known", async () => {
    const sendEmail = vi.fn<SendFn>(async () => new EmailJSResponseStatus(200, "OK"));
    await createEmailJsTransport(config, sendEmail).send(enquiry);
    expect(sendEmail.mock.calls[0]?.[2]).toMatchObject({
      privacy_notice_version: "",
      privacy_notice_language: "",
      notice_version: "",
    });
  });

  it.each([
    [
      "an EmailJSResponseStatus it knows",
      new EmailJSResponseStatus(400, "The service ID is invalid"),
      "EmailJS answered 400: service not found: check EMAILJS_SERVICE_ID",
      400,
    ],
    [
      "Gmail's revoked grant",
      new EmailJSResponseStatus(412, "Gmail_API: Invalid grant. Please reconnect your Gmail account"),
      "EmailJS answered 412: the mail account must be reconnected in EmailJS",
      412,
    ],
    [
      "API calls off for servers",
      new EmailJSResponseStatus(403, "API calls are disabled for non-browser applications"),
      "EmailJS answered 403: API calls from a server are off: allow them in EmailJS's Account > Security",
      403,
    ],
    [
      "an answer it does not know",
      new EmailJSResponseStatus(422, "550 5.1.1 <x@example.in> unknown"),
      "EmailJS answered 422: the mail was refused",
      422,
    ],
    [
      "a 429",
      new EmailJSResponseStatus(429, "Too Many Requests"),
      "EmailJS answered 429: a sending limit was reached",
      429,
    ],
    [
      "a 503",
      new EmailJSResponseStatus(503, "<html>busy</html>"),
      "EmailJS answered 503: EmailJS or the mail server failed",
      503,
    ],
    ["a network status", new EmailJSResponseStatus(), "no answer from EmailJS", 0],
    [
      "a network error",
      Object.assign(new Error("connect ECONNREFUSED 127.0.0.2:443"), { code: "ECONNREFUSED" }),
      "EmailJS not reached: connection refused (ECONNREFUSED)",
      undefined,
    ],
    [
      "an Error without a code",
      new Error("socket hang up at victim@example.in"),
      "the send failed (Error)",
      undefined,
    ],
    [
      "a string",
      "The public key is required. Visit https://dashboard.emailjs.com/admin/account",
      "EmailJS's library: public key refused: check EMAILJS_PUBLIC_KEY",
      undefined,
    ],
    ["something else", { weird: true }, "the send failed (unknown cause)", undefined],
  ])(
    "maps a rejection with %s to a failure in the site's words and its status",
    async (_kind, cause, detail, status) => {
      const sendEmail = vi.fn<SendFn>(() => Promise.reject(cause));
      const result = await createEmailJsTransport(config, sendEmail).send(enquiry);
      expect(result).toMatchObject({ ok: false, reason: "rejected", detail });
      expect(result.ok ? undefined : result.status).toBe(status);
    },
  );

  it("keeps EmailJS's own text for the log only, without the addresses, quoted names and chat mentions it quotes", async () => {
    const refusal =
      'SMTP 550 5.1.1 <victim@example.in>: Recipient "Victim Person" rejected; ping <!channel> <@U024BE7LH> @here, or victim@example.in';
    const sendEmail = vi.fn<SendFn>(() => Promise.reject(new EmailJSResponseStatus(422, refusal)));
    const result = await createEmailJsTransport(config, sendEmail).send(enquiry);
    expect(result).toEqual({
      ok: false,
      reason: "rejected",
      status: 422,
      detail: "EmailJS answered 422: the mail was refused",
      said: "SMTP 550 5.1.1 […]: Recipient […] rejected; ping […] […] [mention], or [address]",
    });
  });

  it("counts any 2xx answer as sent (the SDK rejects all but 200)", async () => {
    const sendEmail = vi.fn<SendFn>(() => Promise.reject(new EmailJSResponseStatus(202, "Accepted")));
    expect(await createEmailJsTransport(config, sendEmail).send(enquiry)).toEqual({ ok: true });
  });

  it("never reports the private key, even when a cause echoes it or the log's cut would halve it", async () => {
    for (const text of [
      "bad accessToken very-secret-private-key",
      `${"x".repeat(190)} very-secret-private-key`,
    ]) {
      const sendEmail = vi.fn<SendFn>(() => Promise.reject(new EmailJSResponseStatus(403, text)));
      const result = await createEmailJsTransport(config, sendEmail).send(enquiry);
      expect(JSON.stringify(result)).not.toMatch(/very-secret|private-key/);
    }
  });

  it("fails after the timeout when EmailJS never answers, and later answers do no harm", async () => {
    let settle: (value: EmailJSResponseStatus) => void = () => {};
    const sendEmail = vi.fn<SendFn>(() => new Promise((_resolve, reject) => (settle = reject)));
    const started = Date.now();
    const result = await createEmailJsTransport({ ...config, timeoutMs: 50 }, sendEmail).send(enquiry);
    expect(result).toMatchObject({ ok: false, reason: "timeout" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    settle(new EmailJSResponseStatus(500, "late"));
  });

  it("caps the timeout at 10 s", async () => {
    vi.useFakeTimers();
    try {
      const sendEmail = vi.fn<SendFn>(() => new Promise(() => {}));
      const pending = createEmailJsTransport({ ...config, timeoutMs: 60_000 }, sendEmail).send(enquiry);
      await vi.advanceTimersByTimeAsync(EMAILJS_TIMEOUT_MS);
      expect(await pending).toMatchObject({ ok: false, reason: "timeout" });
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("transport selection", () => {
  it("has no transport when no EmailJS id is set: the lead store is the inbox, and says so", () => {
    const lines: string[] = [];
    const transport = selectTransport(parseEnv({ ENQUIRY_STORE_DIR: "/srv/leads-data" }), (line) =>
      lines.push(line),
    );
    expect(transport).toBeNull();
    expect(lines).toEqual([expect.stringMatching(/inbox leads in \/srv\/leads-data/)]);
  });

  it("uses EmailJS when its three ids are set", () => {
    const lines: string[] = [];
    const transport = selectTransport(
      parseEnv({
        EMAILJS_SERVICE_ID: "s",
        EMAILJS_TEMPLATE_ID: "t",
        EMAILJS_PUBLIC_KEY: "p",
        EMAILJS_PRIVATE_KEY: "k",
      }),
      (line) => lines.push(line),
    );
    expect(transport?.name).toBe("emailjs");
    expect(lines.join("\n")).toContain("EmailJS");
    expect(lines.join("\n")).not.toContain("k)");
  });

  it("names the missing ids of a partial configuration and fails every send", async () => {
    const warnings: string[] = [];
    const transport = selectTransport(
      parseEnv({ EMAILJS_SERVICE_ID: "s" }),
      () => {},
      (line) => warnings.push(line),
    );
    expect(warnings).toEqual([expect.stringMatching(/missing EMAILJS_TEMPLATE_ID, EMAILJS_PUBLIC_KEY/)]);
    expect(await transport?.send(enquiry)).toMatchObject({ ok: false, reason: "misconfigured" });
  });
});
