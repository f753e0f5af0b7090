import { join } from "node:path";
import { leadReference } from "~/lead-parts/reference";
import { ALERT_CHECK_MS } from "../../app/leads/alerts.server";
import { validEnquiry } from "../support/enquiry-page";
import { emailJsAppEnv } from "../support/fake-emailjs";
import { figures } from "../support/fault-watch";
import { importLeadsInto, leadsCli, postEnquiry, readLeads, writeLeadFile } from "../support/lead-fixtures";
import { fakeHostFor, replicaTest } from "../support/postgres-fixtures";
import { expectCountStays, windowCovering } from "../support/quiet-window";
import { startReplicas } from "../support/replicas";
import { type RunningServer, startServer } from "../support/server-process";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver";

// The team chat's alerts from the built server: a real loopback receiver stands in for Slack's
// incoming webhook and records every `{"text"}` posted to it. EmailJS is the HTTPS fake.

/** The revoked Gmail grant of the issue: EmailJS refuses every send until someone reconnects it. */
const REVOKED = {
  kind: "status",
  status: 412,
  text: "Gmail_API: Invalid grant. Please reconnect your Gmail account",
} as const;

const test = replicaTest(fakeHostFor(31)).extend<{ chat: WebhookReceiver; refusedServer: RunningServer }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern; empty means none
  chat: async ({}, use) => {
    const chat = await startWebhookReceiver();
    await use(chat);
    await chat.close();
  },
  /** One server on the data folder, alerting `chat`, whose every send EmailJS refuses (REVOKED). */
  refusedServer: async ({ fake, folder, chat, serverNode }, use) => {
    fake.respondWith(REVOKED);
    const server = await startServer({
      node: serverNode,
      env: { ...emailJsAppEnv(fake, folder), ALERT_WEBHOOK_URL: chat.url },
    });
    await use(server);
    await server.stop();
  },
});
const { expect } = test;
test.describe.configure({ mode: "default", timeout: 240_000 });

/** The texts the chat received, in order (a retried post appears once per attempt). */
const texts = (chat: WebhookReceiver) =>
  chat.requests.map((request) => (JSON.parse(request.body) as { text: string }).text);

/** What the person typed never reaches the chat, nor does the chat's URL reach the log. */
function expectNoPersonalData(chat: WebhookReceiver, server: { output(): string }, names: string[]) {
  const posted = texts(chat).join("\n");
  for (const name of names) expect(posted).not.toContain(name);
  expect(posted).not.toContain("asha@example.in");
  expect(posted).not.toContain("9876543210");
  expect(server.output()).not.toContain(new URL(chat.url).pathname);
}

test("EmailJS refusing one lead (412) gives one alert at once, naming the lead and what to run", async ({
  folder,
  chat,
  refusedServer: server,
}) => {
  const enquiry = validEnquiry();
  expect((await postEnquiry(server.url, enquiry)).status).toBe(303);
  await expect.poll(() => readLeads(folder).map((lead) => lead.state)).toEqual(["failed"]);
  const [lead] = readLeads(folder);
  await expect.poll(() => chat.requests.length).toBe(1);
  expect(chat.requests[0]?.headers["content-type"]).toMatch(/^application\/json/);
  expect(texts(chat)).toEqual([
    `Lead ${lead?.id} (${leadReference(lead?.id ?? "")}) was not delivered to EmailJS: it gave up after 1 attempt (EmailJS answered 412: the mail account must be reconnected in EmailJS). To fix it, check the EmailJS dashboard (a 412 means the mail account must be reconnected there) and the EMAILJS_* variables, then run \`npm run leads -- retry ${lead?.id}\`.`,
  ]);
  // Nothing more comes for it: no repeat at the next checks.
  await expectCountStays(windowCovering(ALERT_CHECK_MS), () => chat.requests.length, 1);
  expectNoPersonalData(chat, server, [enquiry.name]);
});

/** A mail server's refusal EmailJS passes on, quoting the address, a name and Slack's control sequences. */
const SMTP_REFUSAL = {
  kind: "status",
  status: 422,
  text: 'SMTP 550 5.1.1 <victim@example.in>: Recipient address rejected: "Victim Person" unknown <!channel> <@U024BE7LH> @here',
} as const;
/** What of it may reach no alert, event, last error or log line. */
const QUOTED = ["victim@example.in", "Victim Person", "<!channel>", "<@U024BE7LH>", "@here"];
/** The cause the site writes for it instead. */
const REFUSED = "EmailJS answered 422: the mail was refused";

test("EmailJS passing on a refusal that quotes an address, a name and <!channel>: the alert, lead.failed, npm run leads and the log carry the site's words", async ({
  fake,
  folder,
  chat,
  serverNode,
}) => {
  const secret = `whsec_${Buffer.from("alerts-spec-webhook-secret-32byte").toString("base64")}`;
  const hook = await startWebhookReceiver({ secret });
  fake.respondWith(SMTP_REFUSAL);
  const server = await startServer({
    node: serverNode,
    env: {
      ...emailJsAppEnv(fake, folder),
      ALERT_WEBHOOK_URL: chat.url,
      LEAD_WEBHOOK_URL: hook.url,
      LEAD_WEBHOOK_SECRET: secret,
    },
  });
  try {
    const enquiry = validEnquiry();
    expect((await postEnquiry(server.url, enquiry)).status).toBe(303);
    await expect.poll(() => chat.requests.length).toBe(1);
    const failed = () =>
      hook.requests.map((request) => request.body).filter((body) => body.includes('"lead.failed"'));
    await expect.poll(() => failed().length).toBe(1);
    // The event can go out before the lead's file has its outcome: wait for the file to say it.
    await expect.poll(() => readLeads(folder)[0]?.destinations?.emailjs?.state).toBe("failed");
    const [lead] = readLeads(folder);

    // The chat: the status and the site's words.
    const [alert = ""] = texts(chat);
    expect(alert).toContain(`(${REFUSED})`);
    // The event: the status as a number and the same words.
    expect(JSON.parse(failed()[0] ?? "{}")).toMatchObject({
      type: "lead.failed",
      data: { id: lead?.id, destination: "emailjs", lastError: { status: 422, cause: REFUSED } },
    });
    // The lead's last error, as stored and as `npm run leads` shows it.
    expect(lead?.destinations?.emailjs?.lastError).toBe(REFUSED);
    const table = (await leadsCli(folder, [])).stdout;
    const json = (await leadsCli(folder, ["--json"])).stdout;
    expect(table).toContain(`emailjs failed (1, ${REFUSED})`);
    expect(JSON.parse(json.trim())).toMatchObject({ lastError: REFUSED });
    // The log keeps what EmailJS said, without the address, the name or the mentions.
    const mailLine = server
      .output()
      .split("\n")
      .find((line) => line.startsWith('{"event":"mail"'));
    expect(JSON.parse(mailLine ?? "{}")).toEqual({
      event: "mail",
      transport: "emailjs",
      outcome: "rejected",
      status: 422,
      cause: REFUSED,
      said: "SMTP 550 5.1.1 […]: Recipient address rejected: […] unknown […] […] [mention]",
    });
    for (const [where, text] of [
      ["the alert", texts(chat).join("\n")],
      ["lead.failed", failed().join("\n")],
      ["npm run leads", table],
      ["npm run leads --json", json],
      ["the log", server.output()],
    ] as const) {
      for (const quoted of QUOTED) expect(text, `${where} holds ${quoted}`).not.toContain(quoted);
    }
    // Nothing a chat reads as markup (Slack's <…>) in what goes out.
    expect(`${texts(chat).join("")}${failed().join("")}`).not.toMatch(/[<>]/);
    expectNoPersonalData(chat, server, [enquiry.name]);
  } finally {
    await server.stop();
    await hook.close();
  }
});

test("ten refused leads in the hour: one alert at once and no more until the hour's follow-up; a chat that hangs holds up no lead", async ({
  folder,
  chat,
  refusedServer: server,
}) => {
  // The chat takes the first alert and never answers: the poster gives up on that attempt at
  // its time limit and posts it again, while the leads go on.
  chat.answer("hang");
  const names: string[] = [];
  const answeredMs: number[] = [];
  for (let index = 0; index < 10; index += 1) {
    const enquiry = validEnquiry();
    names.push(enquiry.name);
    const started = performance.now();
    expect((await postEnquiry(server.url, enquiry)).status).toBe(303);
    answeredMs.push(performance.now() - started);
    if (index === 0) await expect.poll(() => chat.requests.length).toBe(1);
  }
  // All ten fail while the first alert's post hangs.
  await expect.poll(() => readLeads(folder).filter((lead) => lead.state === "failed").length).toBe(10);
  expect(chat.requests).toHaveLength(1);
  const [first] = readLeads(folder);
  figures(
    test.info(),
    "alerts",
    `10 refused leads: slowest enquiry answer ${Math.round(Math.max(...answeredMs))} ms while the chat hung`,
  );
  // The same alert again once its attempt timed out, and then nothing: the other nine wait
  // for the follow-up at the end of the hour (tests/unit/lead-alerts-wiring.test.ts moves the
  // clock there).
  await expect.poll(() => chat.requests.length, { timeout: 60_000 }).toBe(2);
  expect(new Set(texts(chat))).toEqual(
    new Set([expect.stringMatching(`^Lead ${first?.id} \\(NRM-[0-9A-Z-]+\\) was not delivered to EmailJS`)]),
  );
  await expectCountStays(windowCovering(ALERT_CHECK_MS, 2), () => chat.requests.length, 2);
  expectNoPersonalData(chat, server, names);
  expect(server.output()).toContain(`alerts: cannot post to ${new URL(chat.url).host} (`);
});

test("a lead pending longer than ALERT_AFTER_MINUTES: one alert and one all-clear from three replicas", async ({
  fake,
  folder,
  chat,
  databaseUrl,
  serverNode,
}) => {
  // The checks, and EmailJS's backoff for the lead (up to 40 s between tries by then).
  test.setTimeout(300_000);
  // A lead stored two minutes ago, so it has waited longer than the minute from the first check:
  // a site moving to PostgreSQL imports its folder's leads so. EmailJS is down: it stays pending.
  fake.respondWith({ kind: "status", status: 503, text: "Service Unavailable" });
  const enquiry = validEnquiry();
  const stored = join(folder, "stored");
  writeLeadFile(stored, { enquiry, receivedAt: new Date(Date.now() - 2 * 60_000).toISOString() });
  await importLeadsInto(databaseUrl, stored);
  const set = await startReplicas({
    count: 3,
    databaseUrl,
    fake,
    folder,
    node: serverNode,
    env: { ALERT_WEBHOOK_URL: chat.url, ALERT_AFTER_MINUTES: "1" },
  });
  try {
    const { stdout } = await leadsCli(join(folder, "operator"), ["--json"], { DATABASE_URL: databaseUrl });
    const lead = JSON.parse(stdout.trim()) as { id: string; state: string };
    expect(lead.state).toBe("pending");

    await expect.poll(() => chat.requests.length, { timeout: 60_000 }).toBe(1);
    expect(texts(chat)[0]).toMatch(
      new RegExp(
        `^1 lead is waiting to be delivered, the oldest \\(${lead.id} \\(${leadReference(lead.id)}\\)\\) for [234] minutes, longer than ALERT_AFTER_MINUTES \\(1\\)\\.`,
      ),
    );
    // Every replica checks as often; only the deliverer tells.
    await expectCountStays(windowCovering(ALERT_CHECK_MS), () => chat.requests.length, 1);

    fake.respondWith({ kind: "ok" });
    await expect.poll(() => chat.requests.length, { timeout: 120_000 }).toBe(2);
    expect(texts(chat)[1]).toBe(
      "All clear: no lead has waited longer than 1 minute any more; delivery is moving again.",
    );
    await expectCountStays(windowCovering(ALERT_CHECK_MS), () => chat.requests.length, 2);
    for (const replica of set.replicas) expectNoPersonalData(chat, replica.server, [enquiry.name]);
  } finally {
    await set.stop();
  }
});
