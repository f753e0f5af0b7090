import { join } from "node:path";
import { expect, type TestInfo } from "@playwright/test";
import { leadReference } from "~/lead-parts/reference";
import { POST_TIMEOUT_MS } from "../../app/destinations/post-json.server";
import { SCAN_MS } from "../../app/leads/delivery/delivery.server";
import { FIRST_RETRY_MS } from "../../app/leads/retry-policy";
import {
  type EnquiryValues,
  enquiryForm,
  fillEnquiry,
  NOTICE,
  validEnquiry,
  waitForHydration,
} from "../support/enquiry-page";
import { emailJsAppEnv, type FakeEmailJs } from "../support/fake-emailjs";
import { leadsCli, postEnquiry, requestsFor, writeLeadFile } from "../support/lead-fixtures";
import { fakeHostFor, replicaTest } from "../support/postgres-fixtures";
import { expectThroughout, windowCovering } from "../support/quiet-window";
import { startReplicas } from "../support/replicas";
import { databaseReady, healthDetails, type RunningServer, startServer } from "../support/server-process";
import {
  closedPort,
  type ReceivedRequest,
  type ReceiverAnswer,
  startWebhookReceiver,
  type WebhookReceiver,
} from "../support/webhook-receiver";

// Each lead reaches EmailJS and the agency's webhook, each on its own: the built server, a real
// loopback receiver that checks every request with the standardwebhooks package's `verify`, the
// HTTPS EmailJS fake, on the data folder and on PostgreSQL. Faults at the receiver (an error
// then success, a hang, 410, a redirect, a refused connection, the server SIGKILLed mid-send, a
// lead erased before its retry) never delay or repeat EmailJS's delivery. Each fault's figures
// (requests, time to delivery) go to the test's annotations and the output.
const test = replicaTest(fakeHostFor(26));
test.describe.configure({ timeout: 150_000 });

/** The receiver's and the servers' secret: `whsec_` and a 32-byte key. */
const SECRET = `whsec_${Buffer.from("lead-webhook-spec-secret-32-byte").toString("base64")}`;

/** A negative check's window: a send the deliverer would make again comes at its next rescan. */
const RESCAN_WINDOW_MS = windowCovering(SCAN_MS);
/** Long enough for a first retry (10 s at most, with jitter) and the scan after it. */
const RETRY_WINDOW_MS = windowCovering(FIRST_RETRY_MS, 1, SCAN_MS + 1_000);

const STORES = ["the data folder", "PostgreSQL"] as const;
type Store = (typeof STORES)[number];

const servers: RunningServer[] = [];
const receivers: WebhookReceiver[] = [];
test.afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.stop()));
  // Every request any receiver got was signed with the secret, as `verify` checks it.
  for (const receiver of receivers) {
    expect(
      receiver.requests.filter((request) => !request.verified).map((request) => request.verifyError),
    ).toEqual([]);
  }
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

async function receiver(port?: number): Promise<WebhookReceiver> {
  const started = await startWebhookReceiver({ secret: SECRET, port });
  receivers.push(started);
  return started;
}

interface WebhookEvent {
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

const eventOf = (request: ReceivedRequest) => JSON.parse(request.body) as WebhookEvent;

/** The `lead.received` requests for the enquiry from `name`. */
function receivedFor(hook: WebhookReceiver, name: string): ReceivedRequest[] {
  return hook.requests.filter((request) => {
    const event = eventOf(request);
    return event.type === "lead.received" && event.data.name === name;
  });
}

/** The `lead.failed` events the receiver got. */
function failedEvents(hook: WebhookReceiver): WebhookEvent[] {
  return hook.requests.map(eventOf).filter((event) => event.type === "lead.failed");
}

/** The `lead.failed` event of a destination that gave up on lead `id` at its first attempt. */
function failedEvent(id: unknown, destination: string, lastError: { status: number; cause: string }) {
  return {
    type: "lead.failed",
    timestamp: expect.any(String),
    data: { id, reference: leadReference(String(id)), destination, attempts: 1, lastError },
  };
}

/**
 * A server on the test's folder (and on a database of its own for PostgreSQL), with EmailJS and
 * the webhook at `webhookUrl`; `restart` starts another on the same store.
 */
async function startApp(options: {
  fake: FakeEmailJs;
  folder: string;
  node: string;
  webhookUrl: string;
  databaseUrl?: string;
}) {
  const { fake, folder, node, webhookUrl, databaseUrl } = options;
  const storeDir = join(folder, "data");
  const database: Record<string, string> = databaseUrl ? { DATABASE_URL: databaseUrl } : {};
  const env = {
    ...emailJsAppEnv(fake, storeDir),
    LEAD_WEBHOOK_URL: webhookUrl,
    LEAD_WEBHOOK_SECRET: SECRET,
    ...database,
  };
  const start = async () => {
    const app = await startServer({ env, node });
    servers.push(app);
    if (databaseUrl) await databaseReady(app.url);
    return app;
  };
  const leads = (args: string[]) =>
    leadsCli(databaseUrl ? join(folder, "operator") : storeDir, args, database).then(
      (result) => result.stdout,
    );
  /** The lead of `name` as `npm run leads -- --json` shows it. */
  const lead = async (name: string) =>
    (await leads(["--json"]))
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((listed) => listed.name === name);
  return { app: await start(), restart: start, storeDir, leads, lead };
}

async function databaseFor(store: Store, postgres: { createDatabase(): Promise<string> }) {
  return store === "PostgreSQL" ? await postgres.createDatabase() : undefined;
}

interface Fixtures {
  fake: FakeEmailJs;
  folder: string;
  postgres: { createDatabase(): Promise<string> };
  serverNode: string;
}

/** A receiver answering `answers` first (then 200), and a server on `store` posting to it. */
async function webhookApp(store: Store, fixtures: Fixtures, ...answers: ReceiverAnswer[]) {
  const hook = await receiver();
  hook.answer(...answers);
  const { fake, folder, postgres, serverNode } = fixtures;
  const databaseUrl = await databaseFor(store, postgres);
  return { hook, ...(await startApp({ fake, folder, node: serverNode, webhookUrl: hook.url, databaseUrl })) };
}

/** Posts an enquiry as the form does (answered 303) and returns what it sent. */
async function postLead(url: string, overrides: Partial<EnquiryValues> = {}): Promise<EnquiryValues> {
  const values = validEnquiry(overrides);
  expect((await postEnquiry(url, values)).status).toBe(303);
  return values;
}

function figures(testInfo: TestInfo, line: string) {
  testInfo.annotations.push({ type: "figures", description: line });
  console.log(`lead webhook: ${line}`);
}

const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

for (const store of STORES) {
  // Each of the receiver's faults runs once on each store and once on each Node line: on the data
  // folder, the image's default store, with the image's Node (the node-24 project); on
  // PostgreSQL with Node 20. A store's code and the sender's are the same on both lines.
  const onImageNodeOnly = { tag: ["@process", "@node-24-only"] };
  test.describe(store, store === "the data folder" ? onImageNodeOnly : {}, () => {
    test(`a 500 then a 200: delivered on the retry with the same webhook-id, EmailJS once and at once`, async ({
      fake,
      folder,
      postgres,
      serverNode,
    }, testInfo) => {
      const { hook, app } = await webhookApp(store, { fake, folder, postgres, serverNode }, { status: 500 });
      const posted = Date.now();
      const values = await postLead(app.url);
      await expect.poll(() => requestsFor(fake, values.name).length).toBe(1);
      const toEmailJs = seconds(posted);
      await expect.poll(() => receivedFor(hook, values.name).length, { timeout: 60_000 }).toBe(2);
      const toWebhook = seconds(posted);
      await expectThroughout(RESCAN_WINDOW_MS, () => {
        expect(receivedFor(hook, values.name)).toHaveLength(2);
        expect(requestsFor(fake, values.name)).toHaveLength(1);
      });
      const [first, retry] = receivedFor(hook, values.name);
      expect(retry?.headers["webhook-id"]).toBe(first?.headers["webhook-id"]);
      expect(retry?.body).toBe(first?.body);
      await expect.poll(async () => (await healthDetails(app.url)).leads.pending).toBe(0);
      figures(
        testInfo,
        `500 then 200 (${store}): webhook 2 requests, delivered after ${toWebhook}; EmailJS 1 request after ${toEmailJs}`,
      );
    });

    test(`a receiver that never answers: EmailJS is not held up; the webhook gets the lead on the retry after ${POST_TIMEOUT_MS / 1000} s`, async ({
      fake,
      folder,
      postgres,
      serverNode,
    }, testInfo) => {
      const { hook, app } = await webhookApp(store, { fake, folder, postgres, serverNode }, "hang");
      const posted = Date.now();
      const values = await postLead(app.url);
      await expect.poll(() => receivedFor(hook, values.name).length).toBe(1);
      await expect.poll(() => requestsFor(fake, values.name).length).toBe(1);
      const emailJsMs = Date.now() - posted;
      // EmailJS got the lead while the webhook's attempt was still waiting for its answer.
      expect(emailJsMs).toBeLessThan(POST_TIMEOUT_MS);
      await expect.poll(() => receivedFor(hook, values.name).length, { timeout: 60_000 }).toBe(2);
      const toWebhook = seconds(posted);
      await expectThroughout(RESCAN_WINDOW_MS, () => {
        expect(receivedFor(hook, values.name)).toHaveLength(2);
        expect(requestsFor(fake, values.name)).toHaveLength(1);
      });
      expect(app.output()).toContain("(no answer within 10 s); it is tried again");
      figures(
        testInfo,
        `hang (${store}): webhook 2 requests (1 unanswered), delivered after ${toWebhook}; EmailJS 1 request after ${(emailJsMs / 1000).toFixed(1)} s`,
      );
    });

    for (const refusal of [
      { label: "410", answer: { status: 410 }, cause: "HTTP 410" },
      {
        label: "a redirect",
        answer: { status: 302, headers: { location: "/moved" } },
        cause: "HTTP 302, a redirect (never followed)",
      },
    ]) {
      test(`${refusal.label}: the lead fails at the webhook only, once, never followed; lead.failed is posted, EmailJS has it`, async ({
        fake,
        folder,
        postgres,
        serverNode,
      }, testInfo) => {
        const { hook, app, lead } = await webhookApp(
          store,
          { fake, folder, postgres, serverNode },
          refusal.answer,
        );
        const posted = Date.now();
        const values = await postLead(app.url);
        await expect.poll(() => failedEvents(hook).length, { timeout: 30_000 }).toBe(1);
        const failedAfter = seconds(posted);
        const id = (await lead(values.name))?.id;
        expect(failedEvents(hook)).toEqual([
          failedEvent(id, "webhook", { status: refusal.answer.status, cause: refusal.cause }),
        ]);
        await expect.poll(() => requestsFor(fake, values.name).length).toBe(1);
        // The lead's own state: failed at one destination, none pending.
        await expect
          .poll(async () => (await healthDetails(app.url)).leads)
          .toMatchObject({ failed: 1, pending: 0 });
        expect(await lead(values.name)).toMatchObject({ state: "failed" });
        await expectThroughout(RETRY_WINDOW_MS, () => {
          expect(receivedFor(hook, values.name)).toHaveLength(1);
          expect(hook.requests.filter((request) => request.path !== "/hooks/leads")).toEqual([]);
          expect(requestsFor(fake, values.name)).toHaveLength(1);
        });
        figures(
          testInfo,
          `${refusal.label} (${store}): webhook 1 lead.received request and 1 lead.failed, lead.failed received ${failedAfter} after the enquiry`,
        );
      });
    }

    test(`EmailJS refusing a lead for good (412): lead.failed names EmailJS and nothing of the person; the webhook has the lead`, async ({
      fake,
      folder,
      postgres,
      serverNode,
    }) => {
      fake.respondWith({ kind: "status", status: 412, text: "Gmail_API: Invalid grant" });
      const { hook, app, lead } = await webhookApp(store, { fake, folder, postgres, serverNode });
      const values = await postLead(app.url, { email: `gave-up-${Date.now()}@example.in` });
      await expect.poll(() => failedEvents(hook).length).toBe(1);
      const id = (await lead(values.name))?.id;
      expect(failedEvents(hook)).toEqual([
        failedEvent(id, "emailjs", {
          status: 412,
          cause: "EmailJS answered 412: the mail account must be reconnected in EmailJS",
        }),
      ]);
      const failedBody = hook.requests.find((request) => eventOf(request).type === "lead.failed")?.body ?? "";
      for (const personal of [values.name, values.email, values.phoneNumber])
        expect(failedBody).not.toContain(personal);
      // The webhook is a destination of its own: its lead.received may arrive after EmailJS's
      // refusal has already been posted as lead.failed (it did, on a busy machine).
      await expect.poll(() => receivedFor(hook, values.name).length).toBe(1);
      // Sent to the webhook, failed at EmailJS: the lead is failed once both outcomes are written.
      await expect.poll(async () => (await lead(values.name))?.state).toBe("failed");
    });

    test(`a refused connection is tried again until the receiver listens, then delivered once`, async ({
      fake,
      folder,
      postgres,
      serverNode,
    }, testInfo) => {
      const port = await closedPort();
      const databaseUrl = await databaseFor(store, postgres);
      const { app } = await startApp({
        fake,
        folder,
        node: serverNode,
        webhookUrl: `http://127.0.0.1:${port}/hooks/leads`,
        databaseUrl,
      });
      const values = await postLead(app.url);
      await expect
        .poll(() => app.output())
        .toContain("(connection refused (ECONNREFUSED)); it is tried again");
      await expect.poll(() => requestsFor(fake, values.name).length).toBe(1);
      const hook = await receiver(port);
      const listening = Date.now();
      await expect.poll(() => receivedFor(hook, values.name).length, { timeout: 60_000 }).toBe(1);
      const toWebhook = seconds(listening);
      await expectThroughout(RESCAN_WINDOW_MS, () => expect(receivedFor(hook, values.name)).toHaveLength(1));
      // The log names the receiver's host only, never the URL's path.
      expect(app.output()).not.toContain("/hooks/leads");
      figures(
        testInfo,
        `refused (${store}): webhook 1 request, delivered ${toWebhook} after the receiver listened`,
      );
    });

    test(`the server SIGKILLed while the webhook's send waits: after a restart the lead reaches it at most once more`, async ({
      fake,
      folder,
      postgres,
      serverNode,
    }, testInfo) => {
      const { hook, app, restart, lead } = await webhookApp(
        store,
        { fake, folder, postgres, serverNode },
        "hang",
      );
      const values = await postLead(app.url);
      await expect.poll(() => requestsFor(fake, values.name).length).toBe(1);
      // EmailJS's outcome written: the kill falls in the webhook's send alone (a crash between
      // EmailJS's answer and its write may send it once more, which is another test's case).
      await expect
        .poll(
          async () =>
            ((await lead(values.name))?.destinations as Record<string, { state: string }>)?.emailjs?.state,
        )
        .toBe("sent");
      await expect.poll(() => receivedFor(hook, values.name).length).toBe(1);
      app.process.kill("SIGKILL");
      const killed = Date.now();
      await restart();
      await expect.poll(() => receivedFor(hook, values.name).length, { timeout: 90_000 }).toBe(2);
      const toWebhook = seconds(killed);
      await expectThroughout(RESCAN_WINDOW_MS, () => {
        expect(receivedFor(hook, values.name)).toHaveLength(2);
        expect(requestsFor(fake, values.name)).toHaveLength(1);
      });
      figures(
        testInfo,
        `SIGKILL mid-send (${store}): webhook 2 requests (1 cut short by the kill), delivered ${toWebhook} after the kill; EmailJS 1`,
      );
    });

    test(`a lead erased before its retry is never sent to the webhook again`, async ({
      fake,
      folder,
      postgres,
      serverNode,
    }, testInfo) => {
      const { hook, app, leads } = await webhookApp(
        store,
        { fake, folder, postgres, serverNode },
        { status: 503 },
      );
      const values = await postLead(app.url, { email: `erase-${Date.now()}@example.in` });
      await expect.poll(() => receivedFor(hook, values.name).length).toBe(1);
      await expect.poll(() => requestsFor(fake, values.name).length).toBe(1);
      // From a shell without the webhook's variables: the webhook may hold it and is not told (exit 1).
      const erased = await leads(["erase", values.email]).then(
        () => {
          throw new Error("erase exited 0 though it could not tell the webhook");
        },
        (error: { code: number; stdout: string }) => error,
      );
      expect(erased.code).toBe(1);
      expect(erased.stdout).toContain("Erased 1 lead of that person.");
      expect(erased.stdout).toContain(
        ": may hold it, not told: webhook (LEAD_WEBHOOK_URL and LEAD_WEBHOOK_SECRET",
      );
      await expectThroughout(RETRY_WINDOW_MS, () => expect(receivedFor(hook, values.name)).toHaveLength(1));
      figures(
        testInfo,
        `erased before its retry (${store}): webhook 1 request (the 503), none after the erase`,
      );
    });

    test(`leads stored before destinations go to EmailJS only; an inbox lead stays in the inbox`, async ({
      fake,
      folder,
      postgres,
      serverNode,
    }) => {
      const hook = await receiver();
      const databaseUrl = await databaseFor(store, postgres);
      const storeDir = join(folder, "data");
      // Files as the release before wrote them (its own fields EmailJS's record); with
      // DATABASE_URL the server imports them at start.
      const pending = validEnquiry();
      const inbox = validEnquiry();
      writeLeadFile(storeDir, { enquiry: pending });
      writeLeadFile(storeDir, { enquiry: inbox, state: "inbox" });
      const { lead } = await startApp({ fake, folder, node: serverNode, webhookUrl: hook.url, databaseUrl });
      await expect.poll(() => requestsFor(fake, pending.name).length).toBe(1);
      await expectThroughout(RESCAN_WINDOW_MS, () => {
        expect(hook.requests).toEqual([]);
        expect(requestsFor(fake, inbox.name)).toHaveLength(0);
      });
      expect(await lead(pending.name)).toMatchObject({ state: "sent" });
      expect(await lead(inbox.name)).toMatchObject({ state: "inbox" });
    });
  });

  for (const javaScript of [true, false]) {
    test.describe(`${javaScript ? "with" : "without"} JavaScript`, () => {
      test.use({ javaScriptEnabled: javaScript });

      test(`@process an enquiry from the page reaches EmailJS and the webhook, signed, in ${store}`, async ({
        page,
        fake,
        folder,
        postgres,
        serverNode,
      }, testInfo) => {
        const { hook, app, lead } = await webhookApp(store, { fake, folder, postgres, serverNode });
        const values = validEnquiry({ message: "हमें अपने क्लिनिक के लिए एक ऐप चाहिए 🙏" });
        await page.goto(app.url);
        if (javaScript) await waitForHydration(page);
        await fillEnquiry(page, values);
        await enquiryForm(page).submit.click();
        await expect(enquiryForm(page).notice).toHaveText(NOTICE.sent);
        await expect.poll(() => requestsFor(fake, values.name).length).toBe(1);
        await expect.poll(() => receivedFor(hook, values.name).length).toBe(1);
        const [request] = receivedFor(hook, values.name);
        const id = (await lead(values.name))?.id;
        expect(request?.headers["content-type"]).toBe("application/json");
        expect(request?.headers["webhook-id"]).toBe(`msg_${id}_received`);
        expect(eventOf(request as ReceivedRequest)).toMatchObject({
          type: "lead.received",
          data: { id, ...values, sourceSummary: expect.any(String) },
        });
        await expect.poll(async () => (await lead(values.name))?.state).toBe("sent");
        figures(
          testInfo,
          `lead.received from the page ${javaScript ? "with" : "without"} JavaScript (${store}): body ${Buffer.byteLength(request?.body ?? "")} bytes, request ${request?.bytes} bytes with its headers`,
        );
      });
    });
  }
}

test("@process three replicas on one database: each lead reaches the webhook once and EmailJS once", async ({
  fake,
  folder,
  databaseUrl,
  serverNode,
}, testInfo) => {
  const hook = await receiver();
  const set = await startReplicas({
    count: 3,
    databaseUrl,
    fake,
    folder,
    node: serverNode,
    env: { LEAD_WEBHOOK_URL: hook.url, LEAD_WEBHOOK_SECRET: SECRET },
  });
  try {
    const names: string[] = [];
    const posted = Date.now();
    for (let index = 0; index < 12; index += 1) {
      const values = validEnquiry();
      expect((await postEnquiry(set.proxy.url, values)).status).toBe(303);
      names.push(values.name);
    }
    const missing = () =>
      names.filter((name) => receivedFor(hook, name).length === 0 || requestsFor(fake, name).length === 0);
    await expect.poll(missing, { timeout: 60_000 }).toEqual([]);
    const delivered = seconds(posted);
    await expectThroughout(RESCAN_WINDOW_MS, () => {
      expect(names.map((name) => receivedFor(hook, name).length)).toEqual(names.map(() => 1));
      expect(names.map((name) => requestsFor(fake, name).length)).toEqual(names.map(() => 1));
    });
    figures(
      testInfo,
      `3 replicas: 12 leads, each 1 webhook request and 1 EmailJS request, all within ${delivered}`,
    );
  } finally {
    await set.stop();
  }
});
