import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EmailJSResponseStatus, type send } from "@emailjs/nodejs";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { parseEnv } from "~/env.server";
import { createEmailJsTransport, EMAILJS_TIMEOUT_MS } from "~/mail/emailjs-transport.server";
import { createOutboxTransport } from "~/mail/outbox-transport.server";
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
  it("sends the seven template params with both keys", async () => {
    const sendEmail = vi.fn<SendFn>(async () => new EmailJSResponseStatus(200, "OK"));
    const result = await createEmailJsTransport(config, sendEmail).send(enquiry);
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
      },
      { publicKey: "public-key", privateKey: "very-secret-private-key" },
    );
  });

  it.each([
    [
      "an EmailJSResponseStatus",
      new EmailJSResponseStatus(400, "The service ID is invalid"),
      /EmailJS answered 400: The service ID is invalid/,
    ],
    ["a network status", new EmailJSResponseStatus(), /EmailJS answered 0: Network Error/],
    ["an Error", new Error("connect ECONNREFUSED 127.0.0.2:443"), /Error: connect ECONNREFUSED/],
    ["a string", "The public key is required.", /The public key is required/],
    ["something else", { weird: true }, /unknown cause/],
  ])("maps a rejection with %s to a failure with its cause", async (_kind, cause, detail) => {
    const sendEmail = vi.fn<SendFn>(() => Promise.reject(cause));
    const result = await createEmailJsTransport(config, sendEmail).send(enquiry);
    expect(result).toMatchObject({ ok: false, reason: "rejected", detail: expect.stringMatching(detail) });
  });

  it("counts any 2xx answer as sent (the SDK rejects all but 200)", async () => {
    const sendEmail = vi.fn<SendFn>(() => Promise.reject(new EmailJSResponseStatus(202, "Accepted")));
    expect(await createEmailJsTransport(config, sendEmail).send(enquiry)).toEqual({ ok: true });
  });

  it("never reports the private key, even when a cause echoes it", async () => {
    const sendEmail = vi.fn<SendFn>(() =>
      Promise.reject(new EmailJSResponseStatus(403, `bad accessToken very-secret-private-key`)),
    );
    const result = await createEmailJsTransport(config, sendEmail).send(enquiry);
    expect(JSON.stringify(result)).not.toContain("very-secret-private-key");
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

describe("outbox transport", () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), "outbox-"));
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it("creates the folder and appends one JSON line with a timestamp per enquiry", async () => {
    const path = join(folder, "nested", "deeper", "enquiries.jsonl");
    const outbox = createOutboxTransport({
      path,
      recipient: "Team",
      now: () => new Date("2026-01-02T03:04:05Z"),
    });
    expect(await outbox.send(enquiry)).toEqual({ ok: true });
    expect(await outbox.send({ ...enquiry, name: "Second" })).toEqual({ ok: true });
    const lines = (await readFile(path, "utf8")).split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe("");
    expect(JSON.parse(lines[0] ?? "")).toEqual({
      receivedAt: "2026-01-02T03:04:05.000Z",
      to_name: "Team",
      name: "Asha Rao",
      email: "asha@example.in",
      countryCode: "91",
      phoneNumber: "9876543210",
      message: enquiry.message,
      from_name: "Asha Rao",
    });
    expect(JSON.parse(lines[1] ?? "").name).toBe("Second");
  });

  it("keeps 200 parallel enquiries as 200 intact lines", async () => {
    const path = join(folder, "enquiries.jsonl");
    const outbox = createOutboxTransport({ path, recipient: "Team" });
    const big = "x".repeat(1500);
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, index) =>
        outbox.send({ ...enquiry, name: `Visitor ${index}`, message: big }),
      ),
    );
    expect(results.every((result) => result.ok)).toBe(true);
    const lines = (await readFile(path, "utf8")).trimEnd().split("\n");
    expect(lines).toHaveLength(200);
    const names = lines.map((line) => JSON.parse(line).name as string);
    expect(new Set(names).size).toBe(200);
  });

  it("reports a failure instead of throwing when it cannot write, and recovers", async () => {
    const path = join(folder, "enquiries.jsonl");
    const blocked = createOutboxTransport({ path: join(path, "child.jsonl"), recipient: "Team" });
    await createOutboxTransport({ path, recipient: "Team" }).send(enquiry); // a file where a folder must be
    expect(await blocked.send(enquiry)).toMatchObject({ ok: false, reason: "write-failed" });
    expect(await createOutboxTransport({ path, recipient: "Team" }).send(enquiry)).toEqual({ ok: true });
  });
});

describe("transport selection", () => {
  it("uses the outbox when no EmailJS id is set, and says so", () => {
    const lines: string[] = [];
    const transport = selectTransport(parseEnv({ ENQUIRY_OUTBOX: "/tmp/x.jsonl" }), (line) =>
      lines.push(line),
    );
    expect(transport.name).toBe("outbox");
    expect(lines).toEqual([expect.stringContaining("/tmp/x.jsonl")]);
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
    expect(transport.name).toBe("emailjs");
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
    expect(await transport.send(enquiry)).toMatchObject({ ok: false, reason: "misconfigured" });
  });
});
