import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAlertPoster } from "~/destinations/alert.server";
import { ALERT_HOUR_MS, createAlertPolicy, DATABASE_ALERT_AFTER_MS } from "~/destinations/alert-policy";
import { expectCountStays, windowCovering } from "../support/quiet-window";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver";

const MINUTE = 60_000;
const ids = Array.from(
  { length: 12 },
  (_, index) => `00000000-0000-4000-8000-${String(index).padStart(12, "0")}`,
);
const refused = {
  status: 412,
  cause: "EmailJS answered 412: the mail account must be reconnected in EmailJS",
};

function policyAt(alertAfterMinutes = 30) {
  let time = Date.parse("2026-03-02T09:00:00Z");
  const policy = createAlertPolicy({ alertAfterMinutes, replica: "web-2", now: () => time });
  return { policy, advance: (ms: number) => (time += ms), now: () => time };
}

describe("alert policy", () => {
  it("tells the first failure at once, and ten within the hour as one alert and one follow-up with their count", () => {
    const { policy, advance } = policyAt();
    const first = policy.gaveUp({
      leadId: ids[0] ?? "",
      destination: "emailjs",
      attempts: 1,
      error: refused,
    });
    expect(first).toEqual([
      `Lead ${ids[0]} (NRM-0000-0000) was not delivered to EmailJS: it gave up after 1 attempt (EmailJS answered 412: the mail account must be reconnected in EmailJS). To fix it, check the EmailJS dashboard (a 412 means the mail account must be reconnected there) and the EMAILJS_* variables, then run \`npm run leads -- retry ${ids[0]}\`.`,
    ]);
    for (const leadId of ids.slice(1, 10)) {
      advance(5 * MINUTE);
      expect(policy.gaveUp({ leadId, destination: "emailjs", attempts: 1, error: refused })).toEqual([]);
      expect(policy.tick()).toEqual([]);
    }
    advance(ALERT_HOUR_MS - 45 * MINUTE - 1);
    expect(policy.tick()).toEqual([]);
    advance(1);
    const [followUp, ...rest] = policy.tick();
    expect(rest).toEqual([]);
    expect(followUp).toMatch(
      /^9 more leads were not delivered to EmailJS in the hour after the last alert \(last: EmailJS answered 412/,
    );
    expect(followUp).toContain(
      ids
        .slice(1, 10)
        .map((id) => `${id} (NRM-0000-0000)`)
        .join(", "),
    );
    expect(followUp).toContain("`npm run leads -- retry --failed`");
    expect(policy.tick()).toEqual([]);
  });

  it("counts each destination on its own, and starts over once an hour passed", () => {
    const { policy, advance } = policyAt();
    const fail = (leadId: string | undefined, destination: "emailjs" | "webhook") =>
      policy.gaveUp({
        leadId: leadId ?? "",
        destination,
        attempts: 4,
        error: { status: 410, cause: "HTTP 410" },
      });
    expect(fail(ids[0], "emailjs")).toHaveLength(1);
    const [webhook] = fail(ids[1], "webhook");
    expect(webhook).toMatch(
      new RegExp(
        `^Lead ${ids[1]} \\(NRM-0000-0000\\) was not delivered to the lead webhook: it gave up after 4 attempts \\(HTTP 410\\)\\. To fix it, check the receiver behind LEAD_WEBHOOK_URL`,
      ),
    );
    // An hour with no other failure: no follow-up, and the next failure is told at once again.
    advance(ALERT_HOUR_MS);
    expect(policy.tick()).toEqual([]);
    expect(fail(ids[2], "emailjs")).toHaveLength(1);
    // A follow-up still owed when the next hour's first failure comes (no tick between): both.
    expect(fail(ids[3], "emailjs")).toEqual([]);
    expect(fail(ids[4], "emailjs")).toEqual([]);
    advance(ALERT_HOUR_MS + MINUTE);
    const [followUp, next] = fail(ids[5], "emailjs");
    expect(followUp).toMatch(/^2 more leads were not delivered to EmailJS/);
    expect(next).toMatch(new RegExp(`^Lead ${ids[5]} \\(NRM-0000-0000\\) was not delivered to EmailJS`));
  });

  it("lists ten lead ids in a follow-up at most, and counts the rest", () => {
    const { policy, advance } = policyAt();
    for (const leadId of ids) policy.gaveUp({ leadId, destination: "webhook", attempts: 2, error: refused });
    advance(ALERT_HOUR_MS);
    const [followUp] = policy.tick();
    expect(followUp).toMatch(/^11 more leads were not delivered/);
    expect(followUp).toContain(
      `${ids
        .slice(1, 11)
        .map((id) => `${id} (NRM-0000-0000)`)
        .join(", ")} and 1 more.`,
    );
  });

  it("tells a lead pending longer than ALERT_AFTER_MINUTES once, reminds hourly while it lasts, then gives one all-clear", () => {
    const { policy, advance, now } = policyAt(30);
    const since = now();
    const oldest = () => ({ id: ids[0] ?? "", since, waiting: 3 });
    advance(30 * MINUTE);
    expect(policy.queue(oldest())).toEqual([]);
    advance(1);
    expect(policy.queue(oldest())).toEqual([
      `3 leads are waiting to be delivered, the oldest (${ids[0]} (NRM-0000-0000)) for 30 minutes, longer than ALERT_AFTER_MINUTES (30). Run \`npm run leads\` to see each one's last error, and check the server log and the EMAILJS_* and LEAD_WEBHOOK_* variables.`,
    ]);
    for (let look = 0; look < 59; look += 1) {
      advance(MINUTE);
      expect(policy.queue(oldest())).toEqual([]);
    }
    advance(MINUTE);
    expect(policy.queue(oldest())).toEqual([
      expect.stringMatching(/^Still: 3 leads are waiting to be delivered, the oldest .* for 90 minutes/),
    ]);
    advance(MINUTE);
    expect(policy.queue(oldest())).toEqual([]);
    // Delivered; a newer lead still waits, but not for long.
    expect(policy.queue({ id: ids[1] ?? "", since: now() - 5 * MINUTE, waiting: 1 })).toEqual([
      "All clear: no lead has waited longer than 30 minutes any more; delivery is moving again.",
    ]);
    expect(policy.queue(null)).toEqual([]);
    advance(ALERT_HOUR_MS);
    expect(policy.queue(null)).toEqual([]);
  });

  it("tells a database unreachable for 5 minutes once, and once when it is back; a shorter blip not at all", () => {
    const { policy, advance } = policyAt();
    expect(policy.database(false)).toEqual([]);
    advance(2 * MINUTE);
    expect(policy.database(true)).toEqual([]);
    expect(policy.database(false)).toEqual([]);
    advance(DATABASE_ALERT_AFTER_MS - 1);
    expect(policy.tick()).toEqual([]);
    advance(1);
    expect(policy.tick()).toEqual([
      "Server web-2 has not reached the database for 5 minutes: new enquiries wait in its spool (ENQUIRY_STORE_DIR/spool) and stored leads wait. Check the database and DATABASE_URL; the server log names the cause.",
    ]);
    advance(10 * MINUTE);
    expect(policy.database(false)).toEqual([]);
    expect(policy.tick()).toEqual([]);
    expect(policy.database(true)).toEqual([
      "Server web-2 reaches the database again, after 15 minutes without it.",
    ]);
    expect(policy.database(true)).toEqual([]);
  });
});

describe("alert poster", () => {
  let receiver: WebhookReceiver;
  const lines: string[] = [];
  /** A Slack-like URL: the path holds the token no log line may show. */
  const urlOf = (receiver: WebhookReceiver) =>
    receiver.url.replace("/hooks/leads", "/services/T0/B0/s3cr3t-t0ken");
  const host = () => new URL(receiver.url).host;
  const poster = (options: { timeoutMs?: number; tryForMs?: number; now?: () => number } = {}) =>
    createAlertPoster({
      url: urlOf(receiver),
      log: (line) => lines.push(line),
      firstRetryMs: 20,
      ...options,
    });

  beforeEach(async () => {
    receiver = await startWebhookReceiver();
    lines.length = 0;
  });
  afterEach(async () => {
    await receiver.close();
    expect(lines.join("\n")).not.toContain("s3cr3t-t0ken");
  });

  it("posts {text} as JSON, in order, retrying a 500 and an answer that never comes, without holding up the caller", async () => {
    receiver.answer("hang", { status: 500 });
    const alerts = poster({ timeoutMs: 300 });
    expect(alerts.post("first")).toBeUndefined();
    alerts.post("second");
    expect(alerts.queued()).toBe(2);
    await expect.poll(() => alerts.queued()).toBe(0);
    expect(receiver.requests.map((request) => [request.method, request.body])).toEqual([
      ["POST", '{"text":"first"}'],
      ["POST", '{"text":"first"}'],
      ["POST", '{"text":"first"}'],
      ["POST", '{"text":"second"}'],
    ]);
    expect(receiver.requests[0]?.headers["content-type"]).toBe("application/json");
    expect(lines).toEqual([
      `alerts: cannot post to ${host()} (no answer within 0.3 s); each alert is tried again for an hour`,
      `alerts: cannot post to ${host()} (HTTP 500); each alert is tried again for an hour`,
      `alerts: posted to ${host()} again`,
    ]);
    await alerts.stop();
  });

  it.each([
    [{ status: 410 }, "HTTP 410"],
    [{ status: 302, headers: { location: "/elsewhere" } }, "HTTP 302, a redirect (never followed)"],
  ])(
    "drops an alert the chat refuses (%j) with one line, and goes on with the next",
    async (answer, cause) => {
      receiver.answer(answer);
      const alerts = poster();
      alerts.post("refused");
      alerts.post("next");
      await expect.poll(() => alerts.queued()).toBe(0);
      expect(receiver.requests.map((request) => [request.path, request.body])).toEqual([
        ["/services/T0/B0/s3cr3t-t0ken", '{"text":"refused"}'],
        ["/services/T0/B0/s3cr3t-t0ken", '{"text":"next"}'],
      ]);
      expect(lines).toEqual([
        `alerts: ${host()} refused an alert (${cause}), so it is dropped; check ALERT_WEBHOOK_URL`,
      ]);
      await alerts.stop();
    },
  );

  it("gives an alert up once its hour of retries is over", async () => {
    receiver.answer(...Array.from({ length: 50 }, () => ({ status: 503 })));
    // The poster's clock moves 50 ms with each request the chat receives, so how fast the
    // machine answers plays no part (on a busy one, the first answer alone once outlasted a
    // real 150 ms window). Retries 20 and 40 ms apart fit in 150 ms; the third failure's retry
    // would come at 230 ms.
    const alerts = poster({ tryForMs: 150, now: () => receiver.requests.length * 50 });
    alerts.post("never taken");
    await expect.poll(() => alerts.queued()).toBe(0);
    expect(receiver.requests).toHaveLength(3);
    expect(lines.at(-1)).toBe(
      `alerts: gave up on an alert after 3 attempts over an hour (HTTP 503); check ${host()}`,
    );
    await alerts.stop();
  });

  it("starts nothing after stop(), which waits for the post in flight", async () => {
    receiver.answer("hang");
    const alerts = poster({ timeoutMs: 300 });
    alerts.post("in flight");
    await expect.poll(() => receiver.requests.length).toBe(1);
    await alerts.stop();
    alerts.post("after stop");
    expect(alerts.queued()).toBe(1);
    await expectCountStays(windowCovering(20, 5, 300), () => receiver.requests.length, 1);
  });
});
