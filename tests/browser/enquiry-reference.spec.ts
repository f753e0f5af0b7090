import { join } from "node:path";
import { type Browser, devices, type Page } from "@playwright/test";
import { leadReference, REFERENCE } from "~/lead-parts/reference";
import {
  enquiryBody,
  enquiryForm,
  fillEnquiry,
  NOTICE,
  validEnquiry,
  waitForHydration,
} from "../support/enquiry-page";
import { emailJsAppEnv, type FakeEmailJs } from "../support/fake-emailjs";
import { expect } from "../support/fixtures";
import { importLeadsInto, leadNamed, leadsCli, requestsFor, writeLeadFile } from "../support/lead-fixtures";
import { fakeHostFor, replicaTest } from "../support/postgres-fixtures";
import { type RunningServer, startServer } from "../support/server-process";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver";

// Every enquiry's reference (NRM-7KQ2-M9XD), end to end: the built server with the HTTPS EmailJS
// fake and a signed webhook receiver, a real browser with and without JavaScript at 1280 and
// 375 px, and the built `npm run leads` on the data folder and on PostgreSQL.
const test = replicaTest(fakeHostFor(42));
test.describe.configure({ timeout: 120_000 });

const SECRET = `whsec_${Buffer.from("enquiry-reference-spec-secret-32").toString("base64")}`;

interface App {
  server: RunningServer;
  hook: WebhookReceiver;
  storeDir: string;
  leads(args: string[]): Promise<string>;
}

const started: App[] = [];
test.afterEach(async () => {
  for (const app of started.splice(0)) {
    await app.server.stop();
    await app.hook.close();
  }
});

async function startApp(fake: FakeEmailJs, folder: string, extra: Record<string, string> = {}): Promise<App> {
  const storeDir = join(folder, "data");
  const hook = await startWebhookReceiver({ secret: SECRET });
  const server = await startServer({
    env: {
      ...emailJsAppEnv(fake, storeDir),
      LEAD_WEBHOOK_URL: hook.url,
      LEAD_WEBHOOK_SECRET: SECRET,
      ...extra,
    },
  });
  const app = {
    server,
    hook,
    storeDir,
    leads: async (args: string[]) => (await leadsCli(storeDir, args)).stdout,
  };
  started.push(app);
  return app;
}

/** The reference a landing URL's token carries. */
function referenceIn(url: string): string | undefined {
  return /[?&]enquiry=[\w-]+\.[0-9a-z]+\.(NRM-[0-9A-Z]{4}-[0-9A-Z]{4})\.[\w-]{22}(?:#|$)/.exec(url)?.[1];
}

/** Posts a form body as a browser does, without following the redirect. */
async function post(url: string, body: Record<string, string>) {
  const response = await fetch(`${url}/?index`, {
    method: "POST",
    body: new URLSearchParams(body),
    redirect: "manual",
  });
  return { status: response.status, location: response.headers.get("location") ?? "" };
}

/** The line beside the form. */
const referenceLine = (page: Page) => page.locator("#contact #enquiry-reference");

/** A browser that is not automated as far as the page can tell (the headless rule refuses one that is). */
async function personsPage(browser: Browser, javaScriptEnabled: boolean, width: number) {
  const context = await browser.newContext({ javaScriptEnabled, viewport: { width, height: 800 } });
  const page = await context.newPage();
  await page.addInitScript(() => {
    Object.defineProperty(Navigator.prototype, "webdriver", { get: () => false });
  });
  return page;
}

for (const javaScriptEnabled of [true, false]) {
  for (const width of [1280, 375]) {
    test(`${javaScriptEnabled ? "with" : "without"} JavaScript at ${width} px: the sender sees 'Email sent successfully!' and their reference, which EmailJS, the webhook and npm run leads all name`, async ({
      browser,
      fake,
      folder,
    }) => {
      const app = await startApp(fake, folder);
      const page = await personsPage(browser, javaScriptEnabled, width);
      await page.goto(`${app.server.url}/`);
      if (javaScriptEnabled) await waitForHydration(page);
      await expect(referenceLine(page)).toBeEmpty();
      const values = validEnquiry();
      await fillEnquiry(page, values);
      await enquiryForm(page).submit.click();
      await expect(enquiryForm(page).notice).toHaveText(NOTICE.sent);
      await expect(referenceLine(page)).toHaveText(/^Your reference: NRM-[0-9A-Z]{4}-[0-9A-Z]{4}\b/);
      // With a line on how to withdraw with it, which leads to the withdrawal page.
      await expect(referenceLine(page).getByRole("link")).toHaveAttribute("href", "/privacy/withdraw");
      const shown = (await referenceLine(page).locator("strong").textContent()) ?? "";
      expect(shown).toMatch(REFERENCE);
      // With JavaScript the page stays where the sender clicked Submit: the line is below it.
      if (javaScriptEnabled) await expect(referenceLine(page)).toBeInViewport();

      // The lead's reference, derived from its id in the store.
      await expect.poll(() => leadNamed(app.storeDir, values.name)?.id).toBeDefined();
      const lead = leadNamed(app.storeDir, values.name);
      expect(leadReference(lead?.id ?? "")).toBe(shown);

      if (!javaScriptEnabled) {
        // The signed landing URL carries it: the page without JavaScript read it from there.
        expect(referenceIn(page.url())).toBe(shown);
      } else {
        // The notice hides after 6 s; the reference stays until the next enquiry, selectable.
        await expect(enquiryForm(page).notice).toBeEmpty({ timeout: 20_000 });
        await expect(referenceLine(page)).toContainText(`Your reference: ${shown}`);
        await referenceLine(page).locator("strong").click();
        expect(await page.evaluate(() => window.getSelection()?.toString())).toBe(shown);
        expect(page.url()).not.toContain("enquiry=");
      }

      // EmailJS's template gets it as `reference`; the webhook's lead.received carries it.
      await expect.poll(() => requestsFor(fake, values.name).length).toBe(1);
      const mail = requestsFor(fake, values.name)[0]?.body as { template_params?: Record<string, string> };
      expect(mail.template_params?.reference).toBe(shown);
      await expect
        .poll(() => app.hook.requests.map((request) => JSON.parse(request.body)))
        .toContainEqual(
          expect.objectContaining({
            type: "lead.received",
            data: expect.objectContaining({ id: lead?.id, reference: shown, name: values.name }),
          }),
        );

      // npm run leads shows it, and finds the lead by it in capitals or not, dashes or none.
      expect(await app.leads([])).toContain(shown);
      for (const typed of [shown, shown.toLowerCase(), shown.replaceAll("-", "").toLowerCase()]) {
        const found = await app.leads(["find", typed]);
        expect(found, typed).toContain(lead?.id);
        expect(found, typed).toContain(values.name);
      }
      await page.context().close();
    });
  }
}

test("a double submit shows the first submission's reference; a refusal (451) shows none", async ({
  browser,
  fake,
  folder,
}) => {
  const app = await startApp(fake, folder, { ENQUIRY_BLOCK_HEADLESS: "1" });
  const values = validEnquiry();
  const first = await post(app.server.url, enquiryBody(values));
  const second = await post(app.server.url, enquiryBody(values));
  expect([first.status, second.status]).toEqual([303, 303]);
  expect(referenceIn(second.location)).toBe(referenceIn(first.location));
  expect(first.location).not.toBe(second.location);
  await expect.poll(() => leadNamed(app.storeDir, values.name)?.id).toBeDefined();
  expect(referenceIn(first.location)).toBe(leadReference(leadNamed(app.storeDir, values.name)?.id ?? ""));

  // Playwright's browser says it is automated (navigator.webdriver): with a desktop User-Agent,
  // the headless rule refuses it.
  const context = await browser.newContext({ userAgent: devices["Desktop Chrome"].userAgent });
  const page = await context.newPage();
  await page.goto(`${app.server.url}/`);
  await waitForHydration(page);
  const refused = validEnquiry();
  await fillEnquiry(page, refused);
  await enquiryForm(page).submit.click();
  await expect(enquiryForm(page).notice).toHaveText(NOTICE.failed);
  await expect(referenceLine(page)).toBeEmpty();
  // Refused by the headless rule (451), and quarantined as such.
  await expect.poll(() => leadNamed(app.storeDir, refused.name)?.reason).toBe("headless");
  await context.close();
});

test("every 303 carries a reference: a quarantined enquiry's is stored with it, a trap that kept nothing gets a random one of the same shape", async ({
  fake,
  folder,
}) => {
  const app = await startApp(fake, folder);
  const caught = validEnquiry();
  const quarantined = await post(
    app.server.url,
    enquiryBody(caught, { company_website: "https://spam.example" }),
  );
  expect(quarantined.status).toBe(303);
  const lead = leadNamed(app.storeDir, caught.name);
  expect(lead?.state).toBe("spam");
  expect(referenceIn(quarantined.location)).toBe(leadReference(lead?.id ?? ""));
  expect(await app.leads(["--spam"])).toContain(referenceIn(quarantined.location));

  const unkept = await post(
    app.server.url,
    enquiryBody(validEnquiry({ email: "not an address" }), { company_website: "https://spam.example" }),
  );
  expect(unkept.status).toBe(303);
  const random = referenceIn(unkept.location) ?? "";
  expect(random).toMatch(REFERENCE);
  expect(await app.leads(["find", random])).toBe(`No lead has the reference ${random}.\n`);
});

test("lead.failed carries the reference, and the chat alert names it", async ({ fake, folder }) => {
  const alerts = await startWebhookReceiver();
  try {
    const storeDir = join(folder, "data");
    const hook = await startWebhookReceiver({ secret: SECRET });
    const server = await startServer({
      env: {
        ...emailJsAppEnv(fake, storeDir),
        LEAD_WEBHOOK_URL: hook.url,
        LEAD_WEBHOOK_SECRET: SECRET,
        ALERT_WEBHOOK_URL: alerts.url,
      },
    });
    started.push({ server, hook, storeDir, leads: async () => "" });
    fake.respondWith({ kind: "status", status: 400, text: "The template ID is invalid" });
    const values = validEnquiry();
    expect((await post(server.url, enquiryBody(values))).status).toBe(303);
    await expect.poll(() => leadNamed(storeDir, values.name)?.id).toBeDefined();
    const id = leadNamed(storeDir, values.name)?.id ?? "";
    const reference = leadReference(id);
    await expect
      .poll(() => hook.requests.map((request) => JSON.parse(request.body)))
      .toContainEqual(
        expect.objectContaining({
          type: "lead.failed",
          data: expect.objectContaining({ id, reference, destination: "emailjs" }),
        }),
      );
    await expect
      .poll(() => alerts.requests.map((request) => (JSON.parse(request.body) as { text: string }).text))
      .toContainEqual(expect.stringContaining(`Lead ${id} (${reference}) was not delivered to EmailJS`));
  } finally {
    await alerts.close();
  }
});

/** Two leads an earlier release stored, whose ids share their first 40 bits, and a third, in `seed`. */
const TWINS = ["3a7f1c2b-9d00-4e6a-8b1c-0123456789ab", "3a7f1c2b-9d11-4e6a-8b1c-0123456789ab"];
const OTHER = "0b7f8c1e-2a4d-4c6e-9f10-3a5b7c9d1e2f";
function writeOldLeads(seed: string) {
  const at = (day: number) => `2026-01-0${day}T10:00:00.000Z`;
  writeLeadFile(seed, { id: TWINS[0], enquiry: validEnquiry({ name: "Twin One" }), receivedAt: at(1) });
  writeLeadFile(seed, { id: TWINS[1], enquiry: validEnquiry({ name: "Twin Two" }), receivedAt: at(2) });
  writeLeadFile(seed, { id: OTHER, enquiry: validEnquiry({ name: "Meera Iyer" }), receivedAt: at(3) });
}

/** What `find` prints by reference, in capitals or not, dashes or none; an ambiguous one said to be so. */
async function checkFind(store: string, leads: (args: string[]) => Promise<string>) {
  const found = await leads(["find", "nrm-1dzr-r7ha"]);
  console.log(`npm run leads -- find nrm-1dzr-r7ha (${store}):\n${found}`);
  expect(found).toContain(OTHER);
  expect(found).toContain("NRM-1DZR-R7HA");
  expect(found).toContain("Meera Iyer");
  expect(found).not.toContain("Twin");
  expect(JSON.parse((await leads(["find", "NRM1DZRR7HA", "--json"])).trim())).toMatchObject({
    id: OTHER,
    reference: "NRM-1DZR-R7HA",
    name: "Meera Iyer",
  });
  const ambiguous = await leads(["find", "79ZH-RAWX"]);
  expect(ambiguous).toContain("NRM-79ZH-RAWX is ambiguous: 2 leads have it.");
  expect(ambiguous).toContain(TWINS[0]);
  expect(ambiguous).toContain(TWINS[1]);
  expect(await leads(["find", "NRM-0000-0000"])).toBe("No lead has the reference NRM-0000-0000.\n");
}

test("npm run leads -- find on the data folder: leads stored before references, by their reference; an ambiguous one said to be so", async ({
  folder,
}) => {
  const seed = join(folder, "data");
  writeOldLeads(seed);
  await checkFind("data folder", async (args) => (await leadsCli(seed, args)).stdout);
});

test("npm run leads -- find on PostgreSQL: leads stored before references, by their reference; an ambiguous one said to be so", async ({
  folder,
  postgres,
}) => {
  const seed = join(folder, "seed");
  writeOldLeads(seed);
  await postgres.start();
  const url = await postgres.createDatabase();
  await importLeadsInto(url, seed);
  await checkFind(
    "PostgreSQL",
    async (args) => (await leadsCli(join(folder, "operator"), args, { DATABASE_URL: url })).stdout,
  );
});
