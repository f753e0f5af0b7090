import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { SCAN_MS } from "../../app/leads/delivery/delivery.server";
import type { Lead } from "../../app/leads/lead";
import {
  type EnquiryValues,
  enquiryBody,
  enquiryForm,
  expectFormValues,
  fillEnquiry,
  NOTICE,
  validEnquiry,
  waitForHydration,
} from "../support/enquiry-page";
import { test as base, expect } from "../support/fixtures";
import { leadNamed, leadsCli, readLeads, writeLeadFile } from "../support/lead-fixtures";
import { expectThroughout, windowCovering } from "../support/quiet-window";
import { healthDetails, type RunningServer, startServer } from "../support/server-process";

const THROTTLE_SECONDS = 60;
const BLOCKED = { domain: "blocked.example", phone: "919000000001" };
const PROTECTIONS = {
  ENQUIRY_BLOCK_LIST: `@${BLOCKED.domain}, ${BLOCKED.phone}`,
  ENQUIRY_BLOCK_HEADLESS: "1",
  ENQUIRY_THROTTLE: String(THROTTLE_SECONDS),
};
/** What a desktop Chrome sends (Playwright's "Desktop Chrome" device says the same). */
const DESKTOP_AGENT =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const HEADLESS_AGENT = DESKTOP_AGENT.replace("Chrome/", "HeadlessChrome/");

interface App {
  server: RunningServer;
  storeDir: string;
}

async function startApp(prefix: string, env: Record<string, string>): Promise<App & { folder: string }> {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  const storeDir = join(folder, "data");
  // Behind one trusted proxy, no budget but the protections under test: no EmailJS, the store is the inbox.
  const server = await startServer({
    env: { ENQUIRY_STORE_DIR: storeDir, ENQUIRY_RATE_LIMIT: "0", TRUST_PROXY: "1", ...env },
  });
  return { server, storeDir, folder };
}

/** Two servers for the whole file: every protection on, and none (the default). */
const test = base.extend<object, { on: App; off: App }>({
  on: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern; empty means none
    async ({}, use) => {
      const app = await startApp("enquiry-spam-on-", PROTECTIONS);
      await use(app);
      await app.server.stop();
      rmSync(app.folder, { recursive: true, force: true });
    },
    { scope: "worker" },
  ],
  off: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern; empty means none
    async ({}, use) => {
      const app = await startApp("enquiry-spam-off-", {});
      await use(app);
      await app.server.stop();
      rmSync(app.folder, { recursive: true, force: true });
    },
    { scope: "worker" },
  ],
  // Pages come from the protected server: the page checks count any other origin as foreign.
  baseURL: async ({ on }, use) => use(on.server.url),
});

let clients = 0;
/** A fresh client address each time, as the trusted proxy (TRUST_PROXY=1) reports it, after a forged entry. */
function nextClient(): string {
  clients += 1;
  return `203.0.113.250, 198.51.100.${clients}`;
}

/**
 * Posts the form as a browser without JavaScript would, from `userAgent` (null: no
 * User-Agent header at all, which fetch and Playwright's request API always add).
 */
function post(
  url: string,
  fields: Record<string, string>,
  options: { userAgent?: string | null; client?: string } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const body = new URLSearchParams(fields).toString();
  const headers: Record<string, string> = {
    "Content-Type": "application/x-www-form-urlencoded",
    "Content-Length": String(Buffer.byteLength(body)),
    "X-Forwarded-For": options.client ?? nextClient(),
  };
  const userAgent = options.userAgent === undefined ? DESKTOP_AGENT : options.userAgent;
  if (userAgent !== null) headers["User-Agent"] = userAgent;
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${url}/?index`, { method: "POST", headers }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        text += chunk;
      });
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }),
      );
    });
    request.on("error", reject);
    request.end(body);
  });
}

/** A lead file as the server would have left it, received at `at`. */
function seed(storeDir: string, lead: Pick<Lead, "state" | "enquiry"> & Partial<Lead>, at = new Date()) {
  return writeLeadFile(storeDir, { ...lead, receivedAt: at.toISOString() }).lead;
}

const blockedValues = () => validEnquiry({ email: `asha@sales.${BLOCKED.domain}` });

test.describe("every protection off (the default)", () => {
  test("a listed address, a headless or missing User-Agent, navigator.webdriver and quick repeats are all accepted", async ({
    off,
  }) => {
    const client = nextClient();
    const cases: Array<[EnquiryValues, Record<string, string>, string | null]> = [
      [blockedValues(), {}, DESKTOP_AGENT],
      [validEnquiry({ countryCode: "91", phoneNumber: "9000000001" }), {}, DESKTOP_AGENT],
      [validEnquiry(), {}, HEADLESS_AGENT],
      [validEnquiry(), {}, null],
      [validEnquiry(), { webdriver: "1" }, DESKTOP_AGENT],
    ];
    for (const [values, extra, userAgent] of cases) {
      const response = await post(off.server.url, enquiryBody(values, extra), { userAgent, client });
      expect(response.status, values.email).toBe(303);
      expect(leadNamed(off.storeDir, values.name)).toMatchObject({ state: "inbox" });
    }
  });
});

test.describe("ENQUIRY_BLOCK_LIST", () => {
  test("an address of a listed domain (or sub-domain) and a listed phone number get 403, and are quarantined", async ({
    on,
  }) => {
    const byDomain = blockedValues();
    const byPhone = validEnquiry({ countryCode: "91", phoneNumber: "09000000001" });
    for (const values of [byDomain, byPhone]) {
      const response = await post(on.server.url, enquiryBody(values));
      expect(response.status).toBe(403);
      expect(response.body).toContain(NOTICE.failed);
      expect(response.body).toContain(`value="${values.name}"`);
      expect(leadNamed(on.storeDir, values.name)).toMatchObject({ state: "spam", reason: "blocklist" });
    }
    // Case does not matter; a look-alike domain is not the listed one.
    const shouting = validEnquiry({ email: `ASHA@${BLOCKED.domain.toUpperCase()}` });
    expect((await post(on.server.url, enquiryBody(shouting))).status).toBe(403);
    const lookAlike = validEnquiry({ email: `asha@not${BLOCKED.domain}` });
    expect((await post(on.server.url, enquiryBody(lookAlike))).status).toBe(303);
    expect(leadNamed(on.storeDir, lookAlike.name)).toMatchObject({ state: "inbox" });
    await expect.poll(() => on.server.output()).toContain('"outcome":"quarantined","reason":"blocklist"');
    expect(on.server.output()).not.toContain(BLOCKED.domain);
  });
});

test.describe("ENQUIRY_BLOCK_HEADLESS", () => {
  test("a headless User-Agent, or none at all, gets 451; a desktop browser and curl pass", async ({ on }) => {
    for (const userAgent of [HEADLESS_AGENT, "Mozilla/5.0 PhantomJS/2.1.1", null]) {
      const values = validEnquiry();
      const response = await post(on.server.url, enquiryBody(values), { userAgent });
      expect(response.status, String(userAgent)).toBe(451);
      expect(response.body).toContain(NOTICE.failed);
      expect(leadNamed(on.storeDir, values.name)).toMatchObject({ state: "spam", reason: "headless" });
    }
    for (const userAgent of [DESKTOP_AGENT, "curl/8.5.0"]) {
      const values = validEnquiry();
      expect((await post(on.server.url, enquiryBody(values), { userAgent })).status).toBe(303);
      expect(leadNamed(on.storeDir, values.name)).toMatchObject({ state: "inbox" });
    }
  });

  test.describe("with JavaScript", () => {
    test.use({ allowedProblems: [/^HTTP 451 /] });

    test("an automated browser (navigator.webdriver) with a desktop User-Agent is refused; a person's browser passes", async ({
      page,
      on,
    }) => {
      // Playwright's browser is automated: it reports navigator.webdriver, as Selenium's and Puppeteer's do.
      const refused = await sendThroughForm(page, on.server.url);
      expect(refused.status).toBe(451);
      await expect(enquiryForm(page).notice).toHaveText(NOTICE.failed);
      expect(leadNamed(on.storeDir, refused.values.name)).toMatchObject({
        state: "spam",
        reason: "headless",
      });

      await page.addInitScript(() => {
        Object.defineProperty(Navigator.prototype, "webdriver", { get: () => false });
      });
      const accepted = await sendThroughForm(page, on.server.url);
      expect(accepted.status).toBeLessThan(400);
      await expect(enquiryForm(page).notice).toHaveText(NOTICE.sent);
      expect(leadNamed(on.storeDir, accepted.values.name)).toMatchObject({ state: "inbox" });
    });
  });

  test("the page is the same for every visitor: the webdriver field exists only in an automated browser after hydration", async ({
    on,
    page,
  }) => {
    const html = await (await fetch(`${on.server.url}/`)).text();
    expect(html).not.toContain('name="webdriver"');
    await page.goto(`${on.server.url}/`);
    await waitForHydration(page);
    await expect(page.locator('#contact input[name="webdriver"]')).toHaveValue("1");
  });
});

test.describe("ENQUIRY_THROTTLE behind TRUST_PROXY=1", () => {
  test("a client gets one accepted enquiry per window, then 429 with Retry-After; other clients are not affected", async ({
    on,
  }) => {
    const address = `198.51.100.${200 + (clients % 50)}`;
    const first = validEnquiry();
    expect(
      (await post(on.server.url, enquiryBody(first), { client: `203.0.113.1, ${address}` })).status,
    ).toBe(303);
    // A forged entry on the left is not the client: the proxy's entry (right) is.
    const second = validEnquiry();
    const refused = await post(on.server.url, enquiryBody(second), { client: `203.0.113.2, ${address}` });
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThan(THROTTLE_SECONDS - 10);
    expect(retryAfter).toBeLessThanOrEqual(THROTTLE_SECONDS);
    expect(refused.body).toContain(NOTICE.failed);
    expect(refused.body).toContain(`value="${second.name}"`);
    // Throttled enquiries are not kept: the visitor keeps their words and sends again later.
    expect(leadNamed(on.storeDir, second.name)).toBeUndefined();
    const other = validEnquiry();
    expect((await post(on.server.url, enquiryBody(other))).status).toBe(303);
    await expect.poll(() => on.server.output()).toContain('"outcome":"throttled"');
  });

  test("without a trusted client address there is no throttle", async () => {
    const app = await startApp("enquiry-throttle-untrusted-", { ...PROTECTIONS, TRUST_PROXY: "0" });
    try {
      for (let index = 0; index < 3; index += 1) {
        expect(
          (await post(app.server.url, enquiryBody(validEnquiry()), { client: "198.51.100.9" })).status,
        ).toBe(303);
      }
    } finally {
      await app.server.stop();
      rmSync(app.folder, { recursive: true, force: true });
    }
  });
});

/** Fills and submits the enhanced form on the home page; the status the browser got to its POST. */
async function sendThroughForm(page: Page, url: string, values = validEnquiry()) {
  await page.goto(`${url}/`);
  await waitForHydration(page);
  await fillEnquiry(page, values);
  const response = page.waitForResponse((candidate) => candidate.request().method() === "POST");
  await enquiryForm(page).submit.click();
  return { status: (await response).status(), values };
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`each refusal ${javaScriptEnabled ? "with" : "without"} JavaScript`, () => {
    test.use({ javaScriptEnabled, allowedProblems: [/^HTTP (403|429|451) /] });

    for (const [label, status] of [
      ["a blocked address", 403],
      ["a headless browser", 451],
      ["a throttled visitor", 429],
    ] as const) {
      test(`${label} sees the failure notice (${status}) and keeps every field`, async ({ browser, on }) => {
        const client = nextClient();
        const context = await browser.newContext({
          javaScriptEnabled,
          userAgent: status === 451 ? HEADLESS_AGENT : DESKTOP_AGENT,
          extraHTTPHeaders: { "X-Forwarded-For": client },
        });
        const page = await context.newPage();
        // A person's browser: not automated, so only the rule under test can refuse it.
        if (status !== 451) {
          await page.addInitScript(() => {
            Object.defineProperty(Navigator.prototype, "webdriver", { get: () => false });
          });
        }
        if (status === 429) {
          expect((await post(on.server.url, enquiryBody(validEnquiry()), { client })).status).toBe(303);
        }
        const values = status === 403 ? blockedValues() : validEnquiry();
        await page.goto(`${on.server.url}/`);
        if (javaScriptEnabled) await waitForHydration(page);
        await fillEnquiry(page, values);
        const form = enquiryForm(page);
        const response = page.waitForResponse((candidate) => candidate.request().method() === "POST");
        await form.submit.click();
        expect((await response).status()).toBe(status);
        await expect(form.notice).toHaveText(NOTICE.failed);
        await expectFormValues(page, values);
        await context.close();
      });
    }
  });
}

test.describe("the quarantine", () => {
  for (const [reason, change] of [
    ["honeypot", (body: Record<string, string>) => ({ ...body, company_website: "https://spam.example" })],
    ["missing-field", ({ company_website: _honeypot, ...body }: Record<string, string>) => body],
  ] as const) {
    test(`${reason}: the bot gets the usual success redirect; the enquiry is kept as spam, not delivered`, async ({
      off,
    }) => {
      const values = validEnquiry();
      const response = await post(off.server.url, change(enquiryBody(values)));
      expect(response.status).toBe(303);
      expect(response.headers.location).toMatch(/^\/\?enquiry=[\w.-]+#contact$/);
      expect(leadNamed(off.storeDir, values.name)).toMatchObject({
        state: "spam",
        reason,
        attempts: 0,
        enquiry: values,
      });
      expect((await healthDetails(off.server.url)).leads.spam).toBeGreaterThanOrEqual(1);
      const listed = await leadsCli(off.storeDir, ["--spam", "--json"]);
      expect(listed.stdout).toContain(`"reason":"${reason}"`);
      expect(listed.stdout).toContain(values.name);
      // The inbox view keeps spam out, and says where it is.
      const inbox = await leadsCli(off.storeDir, []);
      expect(inbox.stdout).not.toContain(values.name);
      expect(inbox.stdout).toMatch(/\d+ leads? in the quarantine: npm run leads -- --spam/);
      const health = await leadsCli(off.storeDir, ["--health"]);
      expect(health.stdout).toMatch(/^leads: .*, [1-9]\d* in the quarantine$/m);
      // The deliverer's rescans file pending leads in the inbox: spam never.
      await expectThroughout(windowCovering(SCAN_MS), () =>
        expect(leadNamed(off.storeDir, values.name)?.state).toBe("spam"),
      );
    });
  }

  test("holds at most 1 000 leads per reason: the oldest of that reason goes first, with a log line", async () => {
    const folder = mkdtempSync(join(tmpdir(), "enquiry-quarantine-bound-"));
    const storeDir = join(folder, "data");
    const start = Date.now() - 3_600_000;
    const seeded: Array<{ id: string }> = [];
    for (let index = 0; index < 1000; index += 1) {
      seeded.push(
        seed(
          storeDir,
          { state: "spam", reason: "honeypot", enquiry: validEnquiry({ name: `Bot ${index}` }) },
          new Date(start + index * 1000),
        ),
      );
    }
    const blocked = seed(
      storeDir,
      {
        state: "spam",
        reason: "blocklist",
        enquiry: validEnquiry({ name: "Blocked" }),
      },
      new Date(start - 1000),
    );
    const server = await startServer({ env: { ENQUIRY_STORE_DIR: storeDir, ENQUIRY_RATE_LIMIT: "0" } });
    try {
      const values = validEnquiry();
      const response = await post(server.url, { ...enquiryBody(values), company_website: "x" });
      expect(response.status).toBe(303);
      const leads = readLeads(storeDir);
      expect(leads.filter((lead) => lead.reason === "honeypot")).toHaveLength(1000);
      expect(leads.find((lead) => lead.id === seeded[0]?.id)).toBeUndefined();
      expect(leads.find((lead) => lead.id === seeded[1]?.id)).toBeDefined();
      // Another reason's oldest lead is not touched.
      expect(leads.find((lead) => lead.id === blocked.id)).toBeDefined();
      expect(leadNamed(storeDir, values.name)).toMatchObject({ state: "spam", reason: "honeypot" });
      expect(server.output()).toContain(
        `lead store: the quarantine holds 1000 honeypot leads, its limit; removed the oldest, ${seeded[0]?.id}`,
      );
    } finally {
      await server.stop();
      rmSync(folder, { recursive: true, force: true });
    }
  });

  for (const [budget, env, by] of [
    ["the per-client budget", { ENQUIRY_RATE_LIMIT: "2" }, "per-client budget"],
    ["the flood level", { ENQUIRY_FLOOD_LIMIT: "2", TRUST_PROXY: "0" }, "flood level"],
  ] as const) {
    test(`counts toward ${budget} like an accepted enquiry`, async () => {
      const app = await startApp("enquiry-spam-budget-", env);
      try {
        const client = nextClient();
        for (let index = 0; index < 2; index += 1) {
          const body = { ...enquiryBody(validEnquiry()), company_website: "x" };
          expect((await post(app.server.url, body, { client })).status).toBe(303);
        }
        expect(readLeads(app.storeDir).filter((lead) => lead.state === "spam")).toHaveLength(2);
        // The budget is spent: a third enquiry is refused, quarantined or not.
        expect((await post(app.server.url, enquiryBody(validEnquiry()), { client })).status).toBe(429);
        const more = { ...enquiryBody(validEnquiry()), company_website: "x" };
        expect((await post(app.server.url, more, { client })).status).toBe(303);
        expect(readLeads(app.storeDir)).toHaveLength(2);
        await expect
          .poll(() => app.server.output())
          .toContain(`"outcome":"spam","reason":"honeypot, ${by}: not kept"`);
      } finally {
        await app.server.stop();
        rmSync(app.folder, { recursive: true, force: true });
      }
    });
  }
});

test.describe("a person's data", () => {
  test("find lists every lead of a person in any state; erase deletes them all while the server runs, and logs only a count", async () => {
    const folder = mkdtempSync(join(tmpdir(), "enquiry-erase-"));
    const storeDir = join(folder, "data");
    const person = { email: "Meera.Nair@Example.in", countryCode: "91", phoneNumber: "9811122233" };
    const states = [
      { state: "pending" },
      { state: "sent", attempts: 1 },
      { state: "failed", attempts: 1, lastError: "EmailJS answered 400: bad template" },
      { state: "inbox" },
      { state: "spam", reason: "honeypot" },
    ] as const;
    const base = Date.now() - 60_000;
    const theirs = states.map((fields, index) =>
      seed(
        storeDir,
        { ...fields, enquiry: validEnquiry({ ...person, name: `Meera ${fields.state}` }) },
        new Date(base + index * 1000),
      ),
    );
    // The same person by phone only (another address, a trunk zero), and somebody else.
    const byPhone = seed(
      storeDir,
      {
        state: "inbox",
        enquiry: validEnquiry({
          email: "meera@other.example",
          countryCode: "91",
          phoneNumber: "09811122233",
        }),
      },
      new Date(base + 10_000),
    );
    const other = seed(storeDir, { state: "inbox", enquiry: validEnquiry() }, new Date(base + 11_000));
    // A server without any EmailJS id files queued leads in its inbox; a partly configured one
    // delivers nothing and leaves them pending, so every state stays in the folder meanwhile.
    const server = await startServer({
      env: { ENQUIRY_STORE_DIR: storeDir, EMAILJS_SERVICE_ID: "service_partial" },
    });
    try {
      const byAddress = await leadsCli(storeDir, ["find", "meera.nair@example.IN", "--json"]);
      const found = byAddress.stdout
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line) as { id: string; state: string });
      expect(found.map((lead) => lead.state).sort()).toEqual(["failed", "inbox", "pending", "sent", "spam"]);
      const byNumber = await leadsCli(storeDir, ["find", "+91 98111 22233"]);
      expect(byNumber.stdout).toContain(`${theirs.length + 1} leads.`);
      for (const lead of [...theirs, byPhone]) expect(byNumber.stdout).toContain(lead.id);
      expect(byNumber.stdout).not.toContain(other.id);

      const erased = await leadsCli(storeDir, ["erase", "919811122233"]);
      // EmailJS may hold the sent lead and the refused one (an attempt began); the pending one
      // was never tried, the others go nowhere.
      const mailbox = (id?: string) =>
        `${id}: may hold it, cannot be told: emailjs — delete its mail from the agency's mailbox.\n`;
      expect(erased.stdout).toBe(
        `Erased 6 leads of that person.\n${mailbox(theirs[1]?.id)}${mailbox(theirs[2]?.id)}`,
      );
      expect(erased.stderr).toBe('{"event":"erase","leads":6}\n');
      expect(readLeads(storeDir).map((lead) => lead.id)).toEqual([other.id]);
      expect((await leadsCli(storeDir, ["find", person.email])).stdout).toBe("No lead of that person.\n");
      expect((await leadsCli(storeDir, ["erase", person.email])).stdout).toBe(
        "Erased 0 leads of that person.\n",
      );
      // The server rereads the folder: its counts drop, and it never writes an erased lead back.
      await expect
        .poll(async () => (await healthDetails(server.url)).leads)
        .toMatchObject({ pending: 0, failed: 0, spam: 0 });
      expect(readdirSync(join(storeDir, "leads")).filter((name) => name.endsWith(".json"))).toHaveLength(1);
      for (const secret of [person.email, person.phoneNumber, "Meera"]) {
        expect(server.output()).not.toContain(secret);
        expect(erased.stderr).not.toContain(secret);
      }
    } finally {
      await server.stop();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

test.describe("a bad setting", () => {
  test("logs one line naming the variable, and leaves that protection off", async () => {
    const app = await startApp("enquiry-spam-bad-", {
      ENQUIRY_BLOCK_LIST: `@${BLOCKED.domain}, not-an-entry`,
      ENQUIRY_BLOCK_HEADLESS: "yes",
      ENQUIRY_THROTTLE: "-5",
    });
    try {
      const output = app.server.output();
      expect(output).toContain(
        "config: ENQUIRY_BLOCK_LIST is invalid (entry 2 of 2 is not an e-mail address, an @domain or a phone number in digits with its country code); this protection stays off until it is fixed",
      );
      expect(output).toContain('config: ENQUIRY_BLOCK_HEADLESS="yes" is invalid');
      expect(output).toContain('config: ENQUIRY_THROTTLE="-5" is invalid');
      expect(output.match(/config: ENQUIRY_(BLOCK_LIST|BLOCK_HEADLESS|THROTTLE)/g)).toHaveLength(3);
      expect(output).not.toContain("not-an-entry");
      const client = nextClient();
      for (const [values, userAgent] of [
        [blockedValues(), DESKTOP_AGENT],
        [validEnquiry(), null],
        [validEnquiry(), HEADLESS_AGENT],
      ] as const) {
        expect((await post(app.server.url, enquiryBody(values), { userAgent, client })).status).toBe(303);
        expect(leadNamed(app.storeDir, values.name)).toMatchObject({ state: "inbox" });
      }
    } finally {
      await app.server.stop();
      rmSync(app.folder, { recursive: true, force: true });
    }
  });
});
