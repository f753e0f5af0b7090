import { join } from "node:path";
import AxeBuilder from "@axe-core/playwright";
import type { Browser, Page, TestInfo } from "@playwright/test";
import pg from "pg";
import { withdrawalLanguages, withdrawalWordsIn } from "~/content/withdrawal";
import { leadReference, REFERENCE } from "~/lead-parts/reference";
import { WITHDRAW_WAIT_MS } from "~/leads/lead-service.server";
import { enquiryForm, fillEnquiry, NOTICE, validEnquiry, waitForHydration } from "../support/enquiry-page";
import { emailJsAppEnv, type FakeEmailJs } from "../support/fake-emailjs";
import { expect, test as pageTest } from "../support/fixtures";
import { leadsCli, postEnquiry, requestsFor } from "../support/lead-fixtures";
import { serveWithoutScripts } from "../support/no-script-page";
import { fakeHostFor, replicaTest } from "../support/postgres-fixtures";
import { expectThroughout, windowCovering } from "../support/quiet-window";
import { databaseReady, type RunningServer, startServer } from "../support/server-process";
import {
  type ReceivedRequest,
  startWebhookReceiver,
  type WebhookReceiver,
} from "../support/webhook-receiver";

// A visitor withdraws their consent on /privacy/withdraw with their enquiry's reference: the built
// server with the HTTPS EmailJS fake, a signed webhook receiver and a team-chat receiver, a real
// browser, on the data folder and on PostgreSQL; the database stopped, locked and frozen; the
// limits; axe in both languages, with and without JavaScript.
const test = replicaTest(fakeHostFor(54));
test.describe.configure({ timeout: 150_000 });

const SECRET = `whsec_${Buffer.from("withdrawal-spec-secret-32-bytes!").toString("base64")}`;
const STORES = ["the data folder", "PostgreSQL"] as const;
type Store = (typeof STORES)[number];
const english = withdrawalWordsIn("en");
const hindi = withdrawalWordsIn("hi");

interface Site {
  server: RunningServer;
  /** With PostgreSQL: the database the server uses. */
  databaseUrl?: string;
  hook: WebhookReceiver;
  chat: WebhookReceiver;
  /** `npm run leads` on the site's store, as an operator runs it. */
  leads(args: string[]): Promise<string>;
  /** The e-mail addresses of the leads the store keeps. */
  addresses(): Promise<string[]>;
}

const sites: Site[] = [];
test.afterEach(async () => {
  for (const site of sites.splice(0)) {
    await site.server.stop();
    for (const receiver of [site.hook, site.chat]) {
      expect(receiver.requests.filter((request) => request.verified === false)).toEqual([]);
      await receiver.close();
    }
  }
});

interface Fixtures {
  fake: FakeEmailJs;
  folder: string;
  postgres: { start(): Promise<void>; createDatabase(): Promise<string> };
}

/** The built server on `store`, with EmailJS, the webhook and the team chat. */
async function startSite(
  store: Store,
  { fake, folder, postgres }: Fixtures,
  extra: Record<string, string> = {},
) {
  const storeDir = join(folder, "data");
  const hook = await startWebhookReceiver({ secret: SECRET });
  const chat = await startWebhookReceiver();
  let database: Record<string, string> = {};
  if (store === "PostgreSQL") {
    await postgres.start();
    database = { DATABASE_URL: await postgres.createDatabase() };
  }
  const server = await startServer({
    env: {
      ...emailJsAppEnv(fake, storeDir),
      LEAD_WEBHOOK_URL: hook.url,
      LEAD_WEBHOOK_SECRET: SECRET,
      ALERT_WEBHOOK_URL: chat.url,
      NOTICE_SECRET: "withdrawal-spec-notice-secret-0123456789abcdef",
      ...database,
      ...extra,
    },
  });
  if (database.DATABASE_URL) await databaseReady(server.url);
  const leads = async (args: string[]) =>
    (await leadsCli(database.DATABASE_URL ? join(folder, "operator") : storeDir, args, database)).stdout;
  const addresses = async () =>
    (await leads(["--json"]))
      .split("\n")
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { email: string }).email)
      .sort();
  const site = { server, databaseUrl: database.DATABASE_URL, hook, chat, leads, addresses };
  sites.push(site);
  return site;
}

/** An enquiry from `email`, posted as the form posts it; its reference, read from the redirect. */
async function enquire(site: Site, email: string): Promise<string> {
  const response = await postEnquiry(site.server.url, validEnquiry({ email }));
  expect(response.status).toBe(303);
  const reference = /\.(NRM-[0-9A-Z]{4}-[0-9A-Z]{4})\./.exec(response.headers.get("location") ?? "")?.[1];
  expect(reference).toMatch(REFERENCE);
  return reference as string;
}

/** A withdrawal posted as the page's form posts it, the redirect not followed. */
async function withdraw(site: Site, fields: Record<string, string>, headers: Record<string, string> = {}) {
  const response = await fetch(`${site.server.url}/privacy/withdraw`, {
    method: "POST",
    headers,
    body: new URLSearchParams({ lang: "en", ...fields }),
    redirect: "manual",
  });
  return {
    status: response.status,
    location: response.headers.get("location"),
    retryAfter: response.headers.get("retry-after"),
    body: await response.text(),
  };
}

const erasedEvents = (hook: WebhookReceiver) =>
  hook.requests
    .map((request: ReceivedRequest) => JSON.parse(request.body) as { type: string; data: { id: string } })
    .filter((event) => event.type === "lead.erased")
    .map((event) => event.data.id);

/** A browser page that is not automated as far as the site can tell. */
async function visitorsPage(browser: Browser, javaScriptEnabled: boolean): Promise<Page> {
  const context = await browser.newContext({ javaScriptEnabled });
  const page = await context.newPage();
  await page.addInitScript(() => {
    Object.defineProperty(Navigator.prototype, "webdriver", { get: () => false });
  });
  return page;
}

/** The withdrawal form, found as a visitor finds it: by its labels. */
function withdrawalForm(page: Page, words = english) {
  return {
    reference: page.getByLabel(words.referenceLabel),
    email: page.getByLabel(words.emailLabel),
    submit: page.getByRole("button", { name: words.submit }),
    status: page.getByRole("status"),
  };
}

function figure(testInfo: TestInfo, line: string) {
  testInfo.annotations.push({ type: "figures", description: line });
  console.log(`withdrawal: ${line}`);
}

for (const store of STORES) {
  const javaScriptEnabled = store === "the data folder";
  test(`${store}, ${javaScriptEnabled ? "with" : "without"} JavaScript: a withdrawal from the success notice erases every lead of the address, the webhook receives lead.erased and the team chat the lead's id and reference`, async ({
    browser,
    fake,
    folder,
    postgres,
  }, testInfo) => {
    const site = await startSite(store, { fake, folder, postgres });
    const values = validEnquiry({ email: `asha.${Date.now()}@example.in` });
    const page = await visitorsPage(browser, javaScriptEnabled);
    await page.goto(`${site.server.url}/`);
    if (javaScriptEnabled) await waitForHydration(page);
    await fillEnquiry(page, values);
    const sentAt = Date.now();
    await enquiryForm(page).submit.click();
    await expect(enquiryForm(page).notice).toHaveText(NOTICE.sent);
    const noticeMs = Date.now() - sentAt;
    const line = page.locator("#enquiry-reference");
    const reference = (await line.locator("strong").textContent()) ?? "";
    expect(reference).toMatch(REFERENCE);
    // A second enquiry of the same address, and one of another person's: both delivered first,
    // so EmailJS and the webhook may hold them.
    await enquire(site, values.email);
    await enquire(site, "ravi@example.in");
    await expect.poll(() => requestsFor(fake, values.name).length).toBe(1);
    await expect.poll(() => fake.requests.length).toBe(3);
    await expect.poll(() => site.hook.requests.length).toBe(3);

    // From the success notice's line to the page, in the same browser.
    await line.getByRole("link").click();
    await expect(page).toHaveURL(/\/privacy\/withdraw$/);
    const form = withdrawalForm(page);
    // Typed as a person types it: lower case, no dashes; the address in capitals.
    await form.reference.fill(reference.toLowerCase().replaceAll("-", ""));
    await form.email.fill(values.email.toUpperCase());
    const askedAt = Date.now();
    await form.submit.click();
    await expect(form.status).toContainText(english.answered);
    const answeredAt = Date.now();
    expect(page.url()).toMatch(/\/privacy\/withdraw\?done=1$/);

    // Both leads of the address are gone; the other person's stays.
    await expect.poll(site.addresses).toEqual(["ravi@example.in"]);
    const withdrawn = (await site.leads(["--withdrawn", "--json"]))
      .split("\n")
      .filter(Boolean)
      .map((json) => JSON.parse(json) as { id: string; reference: string; holding: string[] });
    expect(withdrawn.map((lead) => lead.holding)).toEqual([
      ["emailjs", "webhook"],
      ["emailjs", "webhook"],
    ]);
    const ids = withdrawn.map((lead) => lead.id);
    expect(withdrawn.map((lead) => lead.reference)).toContain(reference);
    for (const lead of withdrawn) expect(leadReference(lead.id)).toBe(lead.reference);

    // The webhook is told of each, in the background; the chat once per lead.
    await expect.poll(() => erasedEvents(site.hook).sort()).toEqual([...ids].sort());
    const lastErased = Math.max(
      ...site.hook.requests
        .filter((request) => request.body.includes('"lead.erased"'))
        .map((request) => request.receivedAt),
    );
    await expect.poll(() => site.chat.requests.length).toBe(2);
    for (const id of ids) {
      const text = site.chat.requests
        .map((request) => (JSON.parse(request.body) as { text: string }).text)
        .find((said) => said.includes(id));
      expect(text).toContain(leadReference(id));
      expect(text).toContain("withdrawn: delete its mail");
    }

    // The operator's list, until each is marked done; the day's count stays.
    const listed = await site.leads(["--withdrawn"]);
    for (const id of ids) expect(listed).toContain(id);
    expect(listed).toContain("webhook: told");
    for (const id of ids) expect(await site.leads(["withdrawn-done", id])).toContain(id);
    const after = await site.leads(["--withdrawn"]);
    expect(after).not.toContain(ids[0]);
    expect(after).toMatch(/Withdrawals in the last 30 days: 1 \(/);
    // Nothing the visitor typed reached the log.
    expect(site.server.output()).not.toContain(values.email);
    expect(site.server.output().toLowerCase()).not.toContain(values.email.toLowerCase());

    figure(
      testInfo,
      `${store}: enquiry sent → success notice ${noticeMs} ms; withdrawal sent → the webhook had lead.erased for both leads at ${lastErased - askedAt} ms, the visitor's answer was shown at ${answeredAt - askedAt} ms`,
    );
  });

  test(`${store}: a wrong reference or e-mail gets the same answer as a match and erases nothing`, async ({
    fake,
    folder,
    postgres,
  }) => {
    const site = await startSite(store, { fake, folder, postgres });
    const reference = await enquire(site, "asha@example.in");
    const othersReference = await enquire(site, "ravi@example.in");
    const wrong = [
      { reference, email: "ravi@example.in" },
      { reference: othersReference, email: "asha@example.in" },
      {
        reference: reference === "NRM-0000-0000" ? "NRM-0000-0001" : "NRM-0000-0000",
        email: "asha@example.in",
      },
    ];
    const answers = [];
    for (const fields of wrong) answers.push(await withdraw(site, fields));
    expect(await site.addresses()).toEqual(["asha@example.in", "ravi@example.in"]);
    expect(await site.leads(["--withdrawn"])).toContain("No withdrawn lead is left to clean up.");
    const right = await withdraw(site, { reference, email: "asha@example.in" });
    // The same status, the same redirect, the same page behind it.
    for (const answer of [...answers, right]) {
      expect(answer.status).toBe(303);
      expect(answer.location).toBe("/privacy/withdraw?done=1");
    }
    expect(await site.addresses()).toEqual(["ravi@example.in"]);
    const page = await (await fetch(`${site.server.url}${right.location}`)).text();
    expect(page).toContain(english.answered);
    // Malformed fields say so at once, and reveal nothing stored.
    const malformed = await withdraw(site, { reference: "NRM-12", email: "asha" });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toContain(english.fieldErrors.reference);
    expect(malformed.body).toContain(english.fieldErrors.email);
  });

  test(`${store}: the limits hold, per reference and site-wide (atomically), and per client behind a trusted proxy`, async ({
    browser,
    fake,
    folder,
    postgres,
  }) => {
    const site = await startSite(
      store,
      { fake, folder, postgres },
      {
        WITHDRAWAL_REFERENCE_LIMIT: "3",
        WITHDRAWAL_SITE_LIMIT: "5",
      },
    );
    const reference = await enquire(site, "asha@example.in");
    // Eight tries at one reference at once: three pass, whatever they match.
    const tries = await Promise.all(
      Array.from({ length: 8 }, () => withdraw(site, { reference, email: "guess@example.in" })),
    );
    expect(tries.map((answer) => answer.status).sort()).toEqual([303, 303, 303, 429, 429, 429, 429, 429]);
    for (const refused of tries.filter((answer) => answer.status === 429)) {
      expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    }
    // The person themselves, in a browser without JavaScript: told when to try again, what they typed kept.
    const page = await visitorsPage(browser, false);
    await page.goto(`${site.server.url}/privacy/withdraw`);
    const form = withdrawalForm(page);
    await form.reference.fill(reference);
    await form.email.fill("asha@example.in");
    const [response] = await Promise.all([page.waitForResponse(/\/privacy\/withdraw$/), form.submit.click()]);
    expect(response.status()).toBe(429);
    await expect(form.status).toContainText(english.limited.split("{minutes}")[0] ?? "");
    await expect(form.reference).toHaveValue(reference);
    await expect(form.email).toHaveValue("asha@example.in");
    expect(await site.addresses()).toEqual(["asha@example.in"]);
    // Without TRUST_PROXY every client shares the site's budget: 3 taken, 2 left.
    const others = ["NRM-0000-0001", "NRM-0000-0002", "NRM-0000-0003"];
    const spread = [];
    for (const other of others)
      spread.push((await withdraw(site, { reference: other, email: "x@example.in" })).status);
    expect(spread).toEqual([303, 303, 429]);

    // Behind a trusted proxy, each client has its own budget.
    const proxied = await startSite(
      store,
      { fake, folder: join(folder, "proxied"), postgres },
      {
        TRUST_PROXY: "127.0.0.1",
        WITHDRAWAL_RATE_LIMIT: "2",
        WITHDRAWAL_SITE_LIMIT: "1",
      },
    );
    const from = (client: string) => ({ "X-Forwarded-For": client });
    const statuses = [];
    for (const [index, client] of ["203.0.113.7", "203.0.113.7", "203.0.113.7", "198.51.100.9"].entries()) {
      const answer = await withdraw(
        proxied,
        { reference: `NRM-0000-001${index}`, email: "x@example.in" },
        from(client),
      );
      statuses.push(answer.status);
    }
    expect(statuses).toEqual([303, 303, 429, 303]);
  });
}

test("PostgreSQL stopped, its leads table locked, or the server frozen: the withdrawal is answered 'try again' (503) with what was typed, and erases nothing", async ({
  browser,
  fake,
  folder,
  postgres,
}) => {
  const site = await startSite("PostgreSQL", { fake, folder, postgres });
  const reference = await enquire(site, "asha@example.in");
  const page = await visitorsPage(browser, false);
  const form = withdrawalForm(page);
  const tryInBrowser = async () => {
    await page.goto(`${site.server.url}/privacy/withdraw`);
    await form.reference.fill(reference);
    await form.email.fill("asha@example.in");
    const [response] = await Promise.all([page.waitForResponse(/\/privacy\/withdraw$/), form.submit.click()]);
    return response.status();
  };

  // Stopped.
  await postgres.stop();
  try {
    expect(await tryInBrowser()).toBe(503);
    await expect(form.status).toContainText(english.unavailable);
    await expect(form.reference).toHaveValue(reference);
    await expect(form.email).toHaveValue("asha@example.in");
  } finally {
    await postgres.start();
  }
  await databaseReady(site.server.url, 60_000);
  expect(await site.addresses()).toEqual(["asha@example.in"]);

  // Locked: the lookup waits for the table, past the lock timeout.
  const locker = new pg.Client({ connectionString: site.databaseUrl });
  await locker.connect();
  try {
    await locker.query("BEGIN");
    await locker.query("LOCK TABLE leads IN ACCESS EXCLUSIVE MODE");
    const locked = await withdraw(site, { reference, email: "asha@example.in" });
    expect(locked.status).toBe(503);
    expect(locked.body).toContain(english.unavailable);
    await locker.query("COMMIT");
  } finally {
    await locker.end();
  }
  expect(await site.addresses()).toEqual(["asha@example.in"]);

  // Frozen mid-withdrawal: answered at WITHDRAW_WAIT_MS; the transaction, once the server wakes,
  // comes to its COMMIT given up and is rolled back.
  postgres.pause();
  let frozen: Awaited<ReturnType<typeof withdraw>>;
  try {
    frozen = await withdraw(site, { reference, email: "asha@example.in" });
  } finally {
    postgres.resume();
  }
  expect(frozen.status).toBe(503);
  await expectThroughout(windowCovering(WITHDRAW_WAIT_MS), async () => {
    expect(await site.addresses()).toEqual(["asha@example.in"]);
  });
  expect(await site.leads(["--withdrawn"])).toContain("No withdrawn lead is left to clean up.");
  expect(erasedEvents(site.hook)).toEqual([]);

  // Back: the same withdrawal erases.
  expect((await withdraw(site, { reference, email: "asha@example.in" })).status).toBe(303);
  await expect.poll(site.addresses).toEqual([]);
});

pageTest.describe("axe", () => {
  // A refusal is a 400, as the page's own answer.
  pageTest.use({ allowedProblems: [/^HTTP 400 .*\/privacy\/withdraw$/] });
  for (const javaScriptEnabled of [true, false]) {
    for (const words of withdrawalLanguages) {
      pageTest(
        `${words.languageName}, ${javaScriptEnabled ? "with" : "without"} JavaScript: the form, a refusal and the answer have no axe violations, and the other language is a link away`,
        async ({ page }) => {
          if (!javaScriptEnabled) await serveWithoutScripts(page);
          const audit = async () => {
            const results = await new AxeBuilder({ page }).analyze();
            expect(
              results.violations.map(
                (violation) =>
                  `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
              ),
            ).toEqual([]);
          };
          await page.goto(`/privacy/withdraw?lang=${words.language}`);
          await expect(page.locator("article")).toHaveAttribute("lang", words.language);
          await audit();
          // A refusal: both fields malformed, what was typed given back.
          const form = withdrawalForm(page, words);
          await form.reference.fill("NRM-12");
          await form.email.fill("asha");
          await form.submit.click();
          await expect(form.status).toContainText(words.fixFields);
          await expect(form.reference).toHaveAttribute("aria-invalid", "true");
          await expect(form.reference).toHaveValue("NRM-12");
          await audit();
          // The answer, in the same language.
          await page.goto(`/privacy/withdraw?done=1&lang=${words.language}`);
          await expect(form.status).toContainText(words.answered);
          await audit();
          // The other language, by its link.
          const other = withdrawalLanguages.find((language) => language !== words) ?? hindi;
          await page.getByRole("link", { name: other.languageName }).click();
          await expect(page.locator("article")).toHaveAttribute("lang", other.language);
          await expect(withdrawalForm(page, other).status).toContainText(other.answered);
        },
      );
    }
  }
});
