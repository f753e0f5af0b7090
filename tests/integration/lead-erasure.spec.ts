import { join } from "node:path";
import { expect } from "@playwright/test";
import { POST_TIMEOUT_MS } from "../../app/destinations/post-json.server";
import { SCAN_MS } from "../../app/leads/delivery/delivery.server";
import type { DeliveryRecord } from "../../app/leads/lead";
import { FIRST_RETRY_MS } from "../../app/leads/retry-policy";
import { type EnquiryValues, validEnquiry } from "../support/enquiry-page";
import { emailJsAppEnv, type FakeEmailJs } from "../support/fake-emailjs";
import { leadsCli, postEnquiry, requestsFor } from "../support/lead-fixtures";
import { fakeHostFor, replicaTest } from "../support/postgres-fixtures";
import { expectThroughout, windowCovering } from "../support/quiet-window";
import { databaseReady, type RunningServer, startServer } from "../support/server-process";
import {
  type ReceivedRequest,
  type ReceiverAnswer,
  startWebhookReceiver,
  type WebhookReceiver,
} from "../support/webhook-receiver";

// `npm run leads -- erase` tells every destination that may hold the lead: each whose delivery
// began, whether its send still waits for its answer (no attempt counted yet), timed out, failed
// or delivered. The built server and command, the HTTPS EmailJS fake, a real loopback webhook
// receiver that checks each request with the standardwebhooks package's `verify` and can hold
// an answer open, on the data folder and on PostgreSQL.
const test = replicaTest(fakeHostFor(47));
test.describe.configure({ timeout: 150_000 });

const SECRET = `whsec_${Buffer.from("lead-erasure-spec-secret-32-byte").toString("base64")}`;

/** From an erase during a send that hangs: past that send's time limit, its retry and the scan after it. */
const AFTER_HANG_WINDOW_MS = windowCovering(POST_TIMEOUT_MS + FIRST_RETRY_MS, 1, SCAN_MS + 1_000);

const STORES = ["the data folder", "PostgreSQL"] as const;

const servers: RunningServer[] = [];
const receivers: WebhookReceiver[] = [];
test.afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.stop()));
  for (const receiver of receivers) {
    expect(
      receiver.requests.filter((request) => !request.verified).map((request) => request.verifyError),
    ).toEqual([]);
  }
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

interface ListedLead {
  id: string;
  name: string;
  destinations: Record<string, DeliveryRecord>;
}

interface WebhookEvent {
  type: string;
  data: Record<string, unknown>;
}

const eventOf = (request: ReceivedRequest) => JSON.parse(request.body) as WebhookEvent;

/** The events of `type` the receiver got about lead `id` (`lead.received` carries the id too). */
function eventsAbout(hook: WebhookReceiver, type: string, id: string): WebhookEvent[] {
  return hook.requests.map(eventOf).filter((event) => event.type === type && event.data.id === id);
}

/** The `lead.received` requests for the enquiry from `name`. */
function receivedFor(hook: WebhookReceiver, name: string): WebhookEvent[] {
  return hook.requests
    .map(eventOf)
    .filter((event) => event.type === "lead.received" && event.data.name === name);
}

/**
 * A receiver answering `answers` first (then 200), a server on `store` sending each lead to the
 * fake EmailJS and to that receiver, and the operator's command on the same store, from a shell
 * with the webhook's two variables.
 */
async function erasureApp(
  store: (typeof STORES)[number],
  fixtures: {
    fake: FakeEmailJs;
    folder: string;
    postgres: { createDatabase(): Promise<string> };
    serverNode: string;
  },
  ...answers: ReceiverAnswer[]
) {
  const { fake, folder, postgres, serverNode } = fixtures;
  const hook = await startWebhookReceiver({ secret: SECRET });
  receivers.push(hook);
  hook.answer(...answers);
  const webhook = { LEAD_WEBHOOK_URL: hook.url, LEAD_WEBHOOK_SECRET: SECRET };
  const database: Record<string, string> =
    store === "PostgreSQL" ? { DATABASE_URL: await postgres.createDatabase() } : {};
  const storeDir = join(folder, "data");
  const app = await startServer({
    env: { ...emailJsAppEnv(fake, storeDir), ...webhook, ...database },
    node: serverNode,
  });
  servers.push(app);
  if (database.DATABASE_URL) await databaseReady(app.url);
  // With DATABASE_URL the command reads the database, never the server's folder.
  const commandDir = database.DATABASE_URL ? join(folder, "operator") : storeDir;
  const leads = (args: string[]) => leadsCli(commandDir, args, { ...webhook, ...database });
  /** The leads as `npm run leads -- --json` shows them, by the visitor's name. */
  const listLeads = async () =>
    new Map(
      (await leads(["--json"])).stdout
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as ListedLead)
        .map((listed) => [listed.name, listed]),
    );
  const lead = async (name: string) => (await listLeads()).get(name);
  return { hook, app, leads, lead, listLeads, host: new URL(hook.url).host };
}

async function postLead(url: string, overrides: Partial<EnquiryValues> = {}): Promise<EnquiryValues> {
  const values = validEnquiry(overrides);
  expect((await postEnquiry(url, values)).status).toBe(303);
  return values;
}

const mailbox = (id: string) =>
  `${id}: may hold it, cannot be told: emailjs — delete its mail from the agency's mailbox.`;
const told = (id: string, host: string) =>
  `${id}: may hold it, told: webhook (${host} took lead.erased, 1 attempt).`;

for (const store of STORES) {
  test.describe(store, () => {
    test("erased while the webhook's first POST waits for its answer (0 attempts counted): the webhook is told; a lead queued behind it, never sent there, is not", async ({
      fake,
      folder,
      postgres,
      serverNode,
    }) => {
      const { hook, app, leads, listLeads, host } = await erasureApp(
        store,
        { fake, folder, postgres, serverNode },
        "hang",
        "hang",
      );
      // Another person's lead holds the webhook's one send at a time for its 10 s, so this
      // person's two leads are stored and listed before their first POST there begins.
      const blocker = await postLead(app.url);
      await expect.poll(() => receivedFor(hook, blocker.name).length).toBe(1);
      const email = `erase-in-flight-${Date.now()}@example.in`;
      const inFlight = await postLead(app.url, { email });
      const queued = await postLead(app.url, { email });
      await expect.poll(() => requestsFor(fake, inFlight.name).length).toBe(1);
      await expect.poll(() => requestsFor(fake, queued.name).length).toBe(1);
      const listed = await listLeads();
      const [heldId, waitingId] = [listed.get(inFlight.name)?.id ?? "", listed.get(queued.name)?.id ?? ""];
      // Once the blocker's POST gives up, the older of the two goes out, and hangs too: its
      // record counts no attempt until the answer (or the time limit) comes.
      await expect
        .poll(() => receivedFor(hook, inFlight.name).length, { timeout: POST_TIMEOUT_MS * 3 })
        .toBe(1);
      expect(receivedFor(hook, queued.name)).toEqual([]);

      const erased = await leads(["erase", email]);
      // The lead's POST still waited for its answer when the webhook took lead.erased.
      expect(hook.unanswered()).toBe(1);
      expect(erased.stdout.split("\n")).toEqual([
        "Erased 2 leads of that person.",
        mailbox(heldId),
        told(heldId, host),
        mailbox(waitingId),
        "",
      ]);
      expect(eventsAbout(hook, "lead.erased", heldId)).toEqual([
        { type: "lead.erased", timestamp: expect.any(String), data: { id: heldId } },
      ]);
      // The queued lead: nothing reaches the webhook, not its event, not the lead itself, once
      // the hanging send gives up and the loop takes the next lead.
      await expectThroughout(AFTER_HANG_WINDOW_MS, () => {
        expect(receivedFor(hook, queued.name)).toEqual([]);
        expect(eventsAbout(hook, "lead.erased", waitingId)).toEqual([]);
        expect(receivedFor(hook, inFlight.name)).toHaveLength(1);
      });
    });

    test("a lead delivered to the webhook, and one whose delivery timed out and then failed for good: the webhook is told of both", async ({
      fake,
      folder,
      postgres,
      serverNode,
    }) => {
      const { hook, app, leads, lead, host } = await erasureApp(
        store,
        { fake, folder, postgres, serverNode },
        { status: 200 },
        "hang",
        { status: 410 },
      );
      const email = `erase-reached-${Date.now()}@example.in`;
      const delivered = await postLead(app.url, { email });
      await expect
        .poll(async () => (await lead(delivered.name))?.destinations.webhook)
        .toMatchObject({ state: "sent", attempts: 1 });
      const timedOut = await postLead(app.url, { email });
      // No answer within the time limit, then a refusal on the retry: failed, and the receiver
      // may still have the body of the first POST.
      await expect
        .poll(async () => (await lead(timedOut.name))?.destinations.webhook, { timeout: 60_000 })
        .toMatchObject({ state: "failed", attempts: 2, lastError: "HTTP 410" });
      expect(receivedFor(hook, timedOut.name)).toHaveLength(2);
      const [deliveredId, timedOutId] = [
        (await lead(delivered.name))?.id ?? "",
        (await lead(timedOut.name))?.id ?? "",
      ];

      const erased = await leads(["erase", email]);
      expect(erased.stdout.split("\n")).toEqual([
        "Erased 2 leads of that person.",
        mailbox(deliveredId),
        told(deliveredId, host),
        mailbox(timedOutId),
        told(timedOutId, host),
        "",
      ]);
      for (const id of [deliveredId, timedOutId]) {
        expect(eventsAbout(hook, "lead.erased", id)).toEqual([
          { type: "lead.erased", timestamp: expect.any(String), data: { id } },
        ]);
      }
      expect(erased.stderr).not.toContain(email);
    });
  });
}
