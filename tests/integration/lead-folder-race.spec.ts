import { randomBytes } from "node:crypto";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { SCAN_MS } from "../../app/leads/delivery/delivery.server";
import type { DeliveryRecord } from "../../app/leads/lead";
import { validEnquiry } from "../support/enquiry-page";
import { emailJsAppEnv, type FakeEmailJs } from "../support/fake-emailjs";
import { expect } from "../support/fixtures";
import { leadsCli, readLeads, writeLeadWith } from "../support/lead-fixtures";
import { fakeHostFor, replicaTest } from "../support/postgres-fixtures";
import { expectThroughout, windowCovering } from "../support/quiet-window";
import { type RunningServer, startServer } from "../support/server-process";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver";

// The data folder's two writers at once, as an outside test raced them: the server writing
// EmailJS's outcomes while `npm run leads -- retry --failed --to webhook` puts every lead's
// failed webhook delivery back in the queue. Both read, change and write the same lead files;
// the guard of each lead file (app/leads/folder/guard.server.ts) keeps one at a time.

// The fake EmailJS and the folder of the replica tests (no PostgreSQL is started: none is used).
const test = replicaTest(fakeHostFor(206));
test.describe.configure({ timeout: 240_000 });

const SECRET = `whsec_${randomBytes(32).toString("base64")}`;
const LEADS = 250;

/** The lead ids the receiver got a `lead.received` for, each as often as it came. */
function webhookIds(receiver: WebhookReceiver): string[] {
  return receiver.requests
    .map((request) => JSON.parse(request.body) as { type: string; data: { id?: string } })
    .filter((event) => event.type === "lead.received")
    .map((event) => event.data.id ?? "");
}

/** How many times each name reached the fake EmailJS. */
function emailJsSends(fake: FakeEmailJs): Map<string, number> {
  const sends = new Map<string, number>();
  for (const request of fake.requests) {
    const name = (request.body as { template_params?: { name?: string } }).template_params?.name ?? "";
    sends.set(name, (sends.get(name) ?? 0) + 1);
  }
  return sends;
}

const countOf = (values: string[]) => {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return counts;
};

test("npm run leads -- retry --failed --to webhook while the server writes EmailJS's outcomes: no lead mailed twice, no retry lost, none left pending", async ({
  fake,
  folder,
}, testInfo) => {
  const storeDir = join(folder, "data");
  const hourAgo = new Date(Date.now() - 60 * 60_000).toISOString();
  const record = (state: DeliveryRecord["state"], attempts: number, lastError: string): DeliveryRecord => ({
    state,
    attempts,
    lastError,
    nextAttemptAt: hourAgo,
    queuedAt: hourAgo,
  });
  // Each lead's webhook gave up, its EmailJS delivery waits (EmailJS was down when it stopped).
  const leads = Array.from({ length: LEADS }, (_, index) =>
    writeLeadWith(storeDir, {
      enquiry: validEnquiry({ name: `Race ${index}` }),
      receivedAt: new Date(Date.parse(hourAgo) + index).toISOString(),
      destinations: {
        emailjs: record("pending", 1, "EmailJS answered 503"),
        webhook: record("failed", 5, "HTTP 500 (gave up after 72 h of retries)"),
      },
    }),
  );
  const receiver = await startWebhookReceiver({ secret: SECRET });
  let server: RunningServer | undefined;
  try {
    server = await startServer({
      env: {
        ...emailJsAppEnv(fake, storeDir),
        // No pause between two sends: the outcomes are written as fast as the server can.
        ENQUIRY_SEND_INTERVAL_MS: "0",
        LEAD_WEBHOOK_URL: receiver.url,
        LEAD_WEBHOOK_SECRET: SECRET,
      },
    });
    // The server sends the leads to EmailJS one after the other, oldest first, and writes each
    // outcome; the command starts as it begins, and goes through the leads in the same order.
    await expect.poll(() => fake.requests.length, { intervals: [10] }).toBeGreaterThanOrEqual(1);
    const sentBefore = fake.requests.length;
    const { stdout } = await leadsCli(storeDir, ["retry", "--failed", "--to", "webhook"]);
    const sentDuring = fake.requests.length - sentBefore;
    expect(stdout).toContain(`${LEADS} leads back in the queue (webhook)`);
    // The command ran while EmailJS's outcomes were written.
    expect(sentDuring).toBeGreaterThan(0);

    // Every lead the command retried reaches the webhook, and every one reaches EmailJS…
    const ids = leads.map((lead) => lead.id);
    const names = leads.map((lead) => lead.enquiry.name);
    await expect
      .poll(() => ids.filter((id) => !webhookIds(receiver).includes(id)).length, { timeout: 150_000 })
      .toBe(0);
    await expect
      .poll(() => names.filter((name) => !emailJsSends(fake).has(name)).length, { timeout: 60_000 })
      .toBe(0);
    // …each file says so (none left pending)…
    await expect
      .poll(() => readLeads(storeDir).filter((lead) => lead.state !== "sent").length, { timeout: 30_000 })
      .toBe(0);
    // …and neither got any lead twice, through a full rescan of the folder.
    const twice = () => ({
      emailjs: [...emailJsSends(fake).values()].filter((count) => count > 1).length,
      webhook: [...countOf(webhookIds(receiver)).values()].filter((count) => count > 1).length,
    });
    await expectThroughout(windowCovering(SCAN_MS), () =>
      expect(twice()).toEqual({ emailjs: 0, webhook: 0 }),
    );
    // The locks are gone with their writes.
    expect(readdirSync(join(storeDir, "leads")).filter((name) => name.endsWith(".json.lock"))).toEqual([]);
    testInfo.annotations.push({
      type: "figures",
      description: `${LEADS} leads: the command retried ${LEADS} while ${sentDuring} EmailJS sends were made; EmailJS ${fake.requests.length} requests, webhook ${webhookIds(receiver).length}; 0 twice, 0 lost, 0 pending`,
    });
    console.log(
      `lead folder race: ${LEADS} leads, the command retried ${LEADS} while ${sentDuring} EmailJS sends were made; EmailJS ${fake.requests.length} requests, webhook ${webhookIds(receiver).length}`,
    );
  } finally {
    await server?.stop();
    await receiver.close();
  }
});
