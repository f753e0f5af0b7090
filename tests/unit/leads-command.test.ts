import { PassThrough } from "node:stream";
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import type { DeliveryResult } from "~/destinations/destination";
import { type WebhookSender, webhookLink } from "~/destinations/webhook.server";
import type { WebhookMessage } from "~/destinations/webhook-events";
import { type DeliveryRecord, type Lead, type LeadDestinations, leadStateOf, newLead } from "~/leads/lead";
import { everyInvocation, optionProblem, readArguments, usageLine } from "~/leads/operations/command-forms";
import { ERASED_EVENT_ATTEMPTS, tellErased } from "~/leads/operations/erased-event";
import { describeDeliveries, leadJson } from "~/leads/operations/lead-view";
import { writeLeadsCsv } from "~/leads/operations/leads-csv";

const AT = "2026-11-01T10:00:00.000Z";
const ID = "0b6f2a1e-5c3d-4e8f-9a7b-1c2d3e4f5a6b";

function record(state: DeliveryRecord["state"], attempts: number, lastError: string | null = null) {
  return { state, attempts, lastError, nextAttemptAt: AT, queuedAt: AT };
}

function leadWith(destinations: LeadDestinations, name = "Asha Rao"): Lead {
  const lead = newLead({
    id: ID,
    enquiry: {
      name,
      email: "asha@example.in",
      countryCode: "91",
      phoneNumber: "9876543210",
      message: "A booking app",
    },
    destinations: [],
    at: new Date(AT),
  });
  return { ...lead, destinations, state: leadStateOf(destinations) };
}

describe("a lead's destinations as npm run leads shows them", () => {
  it("names each destination's state, with attempts and last error for what is not sent", () => {
    expect(
      describeDeliveries(leadWith({ emailjs: record("sent", 1), webhook: record("pending", 3, "HTTP 502") })),
    ).toBe("emailjs sent · webhook pending (3, HTTP 502)");
    expect(
      describeDeliveries(
        leadWith({ webhook: record("sent", 1), emailjs: record("failed", 1, "EmailJS answered 412: grant") }),
      ),
    ).toBe("emailjs failed (1, EmailJS answered 412: grant) · webhook sent");
    expect(describeDeliveries(leadWith({ webhook: record("pending", 0) }))).toBe("webhook pending (0)");
    expect(describeDeliveries(leadWith({}))).toBe("");
  });

  it("--json keeps the flat fields and adds each destination's record", () => {
    const lead = leadWith({ emailjs: record("sent", 1), webhook: record("failed", 2, "HTTP 410") });
    const json = leadJson(lead);
    expect(json).toMatchObject({
      id: ID,
      receivedAt: AT,
      state: "failed",
      attempts: 3,
      lastError: "HTTP 410",
      name: "Asha Rao",
      destinations: { emailjs: record("sent", 1), webhook: record("failed", 2, "HTTP 410") },
    });
    expect(Object.keys(json.destinations as object)).toEqual(["emailjs", "webhook"]);
    expect(leadJson(leadWith({})).destinations).toEqual({});
  });
});

describe("the CSV export's destination columns", () => {
  it("has one column per destination, its state, empty when the lead does not go there", async () => {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on("data", (chunk: Buffer) => chunks.push(chunk));
    async function* leads() {
      yield leadWith({ emailjs: record("sent", 1), webhook: record("failed", 1, "HTTP 410") }, "=Both");
      yield leadWith({ webhook: record("pending", 0) }, "Webhook only");
      yield leadWith({}, "Inbox");
    }
    await writeLeadsCsv(leads(), out);
    const [header, ...rows] = parse(Buffer.concat(chunks).toString("utf8"), { bom: true }) as string[][];
    expect(header?.slice(0, 6)).toEqual(["id", "received", "state", "emailjs", "webhook", "name"]);
    expect(rows.map((row) => row.slice(2, 6))).toEqual([
      ["failed", "sent", "failed", "'=Both"],
      ["pending", "", "pending", "Webhook only"],
      ["inbox", "", "", "Inbox"],
    ]);
  });
});

describe("the leads command's forms", () => {
  it("retry takes --to a destination, for one lead or every failed one", () => {
    expect(readArguments("leads", ["retry", ID, "--to", "webhook"])).toMatchObject({
      form: "retry",
      values: [ID],
      options: new Map([["--to", "webhook"]]),
    });
    expect(readArguments("leads", ["retry", "--to", "emailjs", "--failed"])).toMatchObject({
      form: "retryFailed",
      options: new Map([["--to", "emailjs"]]),
    });
    expect(readArguments("leads", ["retry", ID, "--to", "crm"])).toBeNull();
    expect(optionProblem("leads", ["retry", ID, "--to", "crm"])).toBe(
      "--to takes a destination: emailjs, webhook",
    );
  });

  it("erase takes a lead's id as well as a person; the list takes --state", () => {
    expect(readArguments("leads", ["erase", ID])).toMatchObject({ form: "erase", values: [ID] });
    expect(readArguments("leads", ["--state", "failed", "--json"])).toMatchObject({
      form: "list",
      switches: new Set(["--json"]),
      options: new Map([["--state", "failed"]]),
    });
    expect(optionProblem("leads", ["--state", "lost"])).toMatch(/^--state takes a lead's state: pending, /);
  });

  it("shows the new forms in the usage line, and every invocation the tests make reads as its form", () => {
    const usage = usageLine("leads");
    expect(usage).toContain("-- [--state STATE] [--json]");
    expect(usage).toContain("-- retry ID [--to DESTINATION]");
    expect(usage).toContain("-- retry --failed [--to DESTINATION]");
    expect(usage).toContain("-- erase ID|EMAIL|PHONE");
    const calls = everyInvocation("leads");
    expect(calls).toContainEqual(["retry", "1767225600000-example", "--to", "webhook"]);
    expect(calls).toContainEqual(["retry", "--failed", "--to", "webhook"]);
    for (const call of calls) expect(readArguments("leads", call), call.join(" ")).not.toBeNull();
  });
});

describe("lead.erased from the erase command", () => {
  /** A webhook answering `results` in turn, keeping what it was sent. */
  function webhookAnswering(...results: DeliveryResult[]) {
    const sent: WebhookMessage[] = [];
    const sender: WebhookSender = {
      host: "crm.example:443",
      async send(message) {
        sent.push(message);
        return results.shift() ?? { ok: true };
      },
    };
    return { sender, sent };
  }
  /** The webhook's link, as the erase command reaches it: its `tellErased`. */
  const eraser = (sender: WebhookSender) => {
    const { tellErased: tell } = webhookLink(sender, () => {});
    if (!tell) throw new Error("the webhook hears of erasures");
    return tell;
  };
  const waits: number[] = [];
  const wait = async (ms: number) => {
    waits.push(ms);
  };
  const busy: DeliveryResult = { ok: false, retry: true, error: { status: 503, cause: "HTTP 503" } };

  it("sends the lead's id only, with the same event id in each attempt, until the webhook takes it", async () => {
    waits.length = 0;
    const { sender, sent } = webhookAnswering(busy, busy);
    const outcome = await tellErased(eraser(sender), ID, new Date(AT), wait);
    expect(outcome).toEqual({ took: true, attempts: 3 });
    expect(waits).toEqual([1_000, 2_000]);
    expect(new Set(sent.map((message) => message.id)).size).toBe(1);
    expect(JSON.parse(sent[0]?.body ?? "")).toEqual({ type: "lead.erased", timestamp: AT, data: { id: ID } });
  });

  it("stops at a refusal, or after its attempts, and says why", async () => {
    const gone: DeliveryResult = { ok: false, retry: false, error: { status: 410, cause: "HTTP 410" } };
    expect(await tellErased(eraser(webhookAnswering(gone).sender), ID, new Date(AT), wait)).toEqual({
      took: false,
      attempts: 1,
      error: { status: 410, cause: "HTTP 410" },
    });
    const always = webhookAnswering(busy, busy, busy, busy);
    expect(await tellErased(eraser(always.sender), ID, new Date(AT), wait)).toMatchObject({
      took: false,
      attempts: ERASED_EVENT_ATTEMPTS,
    });
    expect(always.sent).toHaveLength(ERASED_EVENT_ATTEMPTS);
  });
});
