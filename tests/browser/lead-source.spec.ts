import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserContext, Page } from "@playwright/test";
import type { LeadSource } from "../../app/lead-parts/source";
import {
  enquiryBody,
  enquiryForm,
  fillEnquiry,
  NOTICE,
  validEnquiry,
  waitForHydration,
} from "../support/enquiry-page";
import { emailJsAppEnv, type FakeEmailJs, startFakeEmailJs } from "../support/fake-emailjs";
import { test as base, expect } from "../support/fixtures";
import { leadNamed, readLeads, requestsFor, runLeadsCli, writeLeadFile } from "../support/lead-fixtures";
import { type RunningServer, startServer } from "../support/server-process";

// Each test's enquiry has a name of its own, and every check finds its lead, mail and rows by it
// or counts the change it made: the tests share one server, store and EmailJS fake, in order.
// Each test runs the built `npm run leads` a few times: a busy machine makes that seconds.
base.describe.configure({ mode: "default", timeout: 120_000 });

/** A loopback address of this file's own for the fake. */
const FAKE_HOST = (process.env.FAKE_EMAILJS_HOST ?? "127.0.0.2").replace(/^127\.0\./, "127.24.");

/** A server of its own on an IPv6 literal address, with its own store. */
interface Ipv6App {
  server: RunningServer;
  storeDir: string;
}

/** The app's environment in this file: SITE_URL is another origin than the test's. */
const appEnv = (fake: FakeEmailJs, storeDir: string) => ({
  ...emailJsAppEnv(fake, storeDir),
  SITE_URL: "https://www.nirmaan.digital",
});

const test = base.extend<
  { fake: FakeEmailJs },
  { fakeEmailJs: FakeEmailJs; app: RunningServer; storeDir: string; ipv6App: Ipv6App }
>({
  storeDir: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
    async ({}, use) => {
      const folder = mkdtempSync(join(tmpdir(), "lead-source-"));
      await use(join(folder, "data"));
      rmSync(folder, { recursive: true, force: true });
    },
    { scope: "worker" },
  ],
  fakeEmailJs: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
    async ({}, use) => {
      const fake = await startFakeEmailJs(FAKE_HOST);
      await use(fake);
      await fake.close();
    },
    { scope: "worker" },
  ],
  app: [
    async ({ fakeEmailJs, storeDir }, use) => {
      // A form posted from the origin the browser used counts as this site's too.
      const server = await startServer({ env: appEnv(fakeEmailJs, storeDir) });
      await use(server);
      await server.stop();
    },
    { scope: "worker", timeout: 60_000 },
  ],
  ipv6App: [
    async ({ fakeEmailJs }, use) => {
      const folder = mkdtempSync(join(tmpdir(), "lead-source-ipv6-"));
      const storeDir = join(folder, "data");
      const server = await startServer({ env: { ...appEnv(fakeEmailJs, storeDir), HOST: "::1" } });
      await use({ server, storeDir });
      await server.stop();
      rmSync(folder, { recursive: true, force: true });
    },
    { scope: "worker", timeout: 60_000 },
  ],
  fake: async ({ fakeEmailJs }, use) => {
    fakeEmailJs.reset();
    await use(fakeEmailJs);
  },
  baseURL: async ({ app }, use) => use(app.url),
});

const CAMPAIGN = "/?utm_source=newsletter&utm_medium=email&utm_campaign=launch";
const GCLID = "Cj0KCQiA-TeSt_gclid-123";

/** What an entry must leave behind: the stored record, the mail's two lines, the summary's row. */
interface Expected {
  source: LeadSource | undefined;
  line: string;
  clickId: string;
  row: { source: string; medium: string; campaign: string };
}

const campaign: Expected = {
  source: {
    landing: "/",
    parameters: { utm_source: "newsletter", utm_medium: "email", utm_campaign: "launch" },
  },
  line: "newsletter / email / launch",
  clickId: "",
  row: { source: "newsletter", medium: "email", campaign: "launch" },
};
const adClick: Expected = {
  source: { landing: "/", parameters: { gclid: GCLID } },
  line: "google / cpc",
  clickId: `gclid=${GCLID}`,
  row: { source: "google", medium: "cpc", campaign: "" },
};
const direct: Expected = {
  source: { landing: "/" },
  line: "direct",
  clickId: "",
  row: { source: "direct", medium: "", campaign: "" },
};
const linkedIn: Expected = {
  source: { landing: "/", referrer: "https://www.linkedin.com" },
  line: "linkedin.com (referral)",
  clickId: "",
  row: { source: "linkedin.com", medium: "referral", campaign: "" },
};

type Counts = { delivered: number; waiting: number; quarantined: number };

/**
 * The rows of `npm run leads -- --sources`, read by the header's column positions (a cell may
 * be empty), keyed by `source|medium|campaign`.
 */
async function summary(storeDir: string, args: string[] = []): Promise<Map<string, Counts>> {
  const output = await runLeadsCli(storeDir, ["--sources", ...args]);
  const lines = output.split("\n");
  const headerAt = lines.findIndex((line) => line.startsWith("source "));
  const rows = new Map<string, Counts>();
  if (headerAt === -1) return rows;
  const header = lines[headerAt] ?? "";
  const names = ["source", "medium", "campaign", "delivered", "waiting", "quarantined"];
  const starts = names.map((name) => header.indexOf(name));
  expect(
    starts.every((start) => start >= 0),
    output,
  ).toBe(true);
  for (const line of lines.slice(headerAt + 2).filter(Boolean)) {
    const cells = starts.map((start, index) => line.slice(start, starts[index + 1]).trim());
    const [source, medium, campaignName, delivered, waiting, quarantined] = cells;
    rows.set(`${source}|${medium}|${campaignName}`, {
      delivered: Number(delivered),
      waiting: Number(waiting),
      quarantined: Number(quarantined),
    });
  }
  return rows;
}

function rowKey(row: Expected["row"]): string {
  return `${row.source}|${row.medium}|${row.campaign}`;
}

const NONE: Counts = { delivered: 0, waiting: 0, quarantined: 0 };

/** The CLI's table cell under `column` on the row of the lead from `name`. */
async function cliCell(storeDir: string, name: string, column: string, args: string[] = []): Promise<string> {
  const lines = (await runLeadsCli(storeDir, args)).split("\n");
  const header = (lines.find((line) => line.startsWith("time ")) ?? "").trimEnd();
  const columns = header.split(/ {2,}/);
  const starts = columns.map((each) => header.indexOf(each));
  const row = lines.find((line) => line.includes(name)) ?? "";
  const index = columns.indexOf(column);
  expect(index, `a ${column} column in:\n${lines.join("\n")}`).toBeGreaterThanOrEqual(0);
  return row.slice(starts[index], starts[index + 1]).trim();
}

/** Fills and submits the form on the page as it is, and waits for the success notice. */
async function sendEnquiry(page: Page, name?: string) {
  const values = validEnquiry(name ? { name } : {});
  await fillEnquiry(page, values);
  const form = enquiryForm(page);
  await form.submit.click();
  await expect(form.notice).toHaveText(NOTICE.sent);
  return values;
}

/**
 * The enquiry from `name` left what `expected` says everywhere the agency looks: the lead's
 * record, the mail's `source` and `click_id`, `npm run leads` and its `--sources` row (one more
 * delivered than `before`).
 */
async function expectSource(
  context: { storeDir: string; fake: FakeEmailJs },
  name: string,
  expected: Expected,
  before: Map<string, Counts>,
) {
  const { storeDir, fake } = context;
  await expect.poll(() => leadNamed(storeDir, name)?.state).toBe("sent");
  expect(leadNamed(storeDir, name)?.source).toStrictEqual(expected.source);
  const requests = requestsFor(fake, name);
  expect(requests).toHaveLength(1);
  const params = (requests[0]?.body as { template_params?: Record<string, string> } | undefined)
    ?.template_params;
  expect(params?.source).toBe(expected.line);
  expect(params?.click_id).toBe(expected.clickId);
  // The commands run side by side: each is a process start, seconds on a busy machine.
  const [cell, json, after] = await Promise.all([
    cliCell(storeDir, name, "source"),
    runLeadsCli(storeDir, ["--json"]),
    summary(storeDir),
  ]);
  const was = before.get(rowKey(expected.row)) ?? NONE;
  expect(cell).toBe(expected.line);
  const printed = json
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { name: string; source?: LeadSource });
  expect(printed.find((lead) => lead.name === name)?.source).toStrictEqual(expected.source);
  expect(after.get(rowKey(expected.row))).toEqual({ ...was, delivered: was.delivered + 1 });
}

/**
 * The site kept nothing in the browser: no cookie, nothing in localStorage or sessionStorage.
 * The test's evaluation runs with or without the page's JavaScript, so storage is always read;
 * a page that cannot be read fails the test instead of skipping the check.
 */
async function expectNothingStored(page: Page, context: BrowserContext) {
  expect(await context.cookies()).toEqual([]);
  expect(await page.evaluate(() => [localStorage.length, sessionStorage.length])).toEqual([0, 0]);
}

test.describe("with JavaScript", () => {
  test("from a newsletter's campaign link", async ({ page, context, fake, storeDir }) => {
    const before = await summary(storeDir);
    await page.goto(CAMPAIGN);
    await waitForHydration(page);
    const values = await sendEnquiry(page);
    await expectSource({ storeDir, fake }, values.name, campaign, before);
    await expectNothingStored(page, context);
  });

  test("from an ad click with a gclid", async ({ page, context, fake, storeDir }) => {
    const before = await summary(storeDir);
    await page.goto(`/?gclid=${GCLID}`);
    await waitForHydration(page);
    const values = await sendEnquiry(page);
    await expectSource({ storeDir, fake }, values.name, adClick, before);
    await expectNothingStored(page, context);
  });

  test("after reading the privacy policy and coming back, and after a first enquiry moved the address, the campaign is kept", async ({
    page,
    context,
    fake,
    storeDir,
  }) => {
    const before = await summary(storeDir);
    await page.goto(CAMPAIGN);
    await waitForHydration(page);
    // The policy opens in place, its text fetched from the policy page by the router.
    const policyData = page.waitForResponse((response) => response.url().includes("privacy-policy"));
    await page.getByRole("contentinfo").getByRole("link", { name: "Privacy Policy" }).click();
    await policyData;
    const dialog = page.getByRole("dialog", { name: "Privacy Policy" });
    // Its layout is a chunk of its own, fetched now: slow on a busy machine.
    await expect(dialog.getByRole("heading", { level: 3 }).first()).toBeVisible({ timeout: 20_000 });
    await dialog.getByRole("button", { name: "Close" }).click();
    await expect(dialog).toBeHidden();
    const first = await sendEnquiry(page);
    await expectSource({ storeDir, fake }, first.name, campaign, before);
    // The router took the visitor to the notice's address and then dropped its token: the
    // address bar no longer holds the campaign, the page's memory does.
    await expect(page).toHaveURL((url) => url.search === "");
    // The notice goes by itself; the next one is the second enquiry's.
    await expect(enquiryForm(page).notice).not.toHaveText(NOTICE.sent, { timeout: 30_000 });
    const beforeSecond = await summary(storeDir);
    const second = await sendEnquiry(page);
    await expectSource({ storeDir, fake }, second.name, campaign, beforeSecond);
    await expectNothingStored(page, context);
  });

  test("landing on a policy page, which sends no bundle, and following its link to the form, the campaign is kept", async ({
    page,
    context,
    fake,
    storeDir,
  }) => {
    const before = await summary(storeDir);
    await page.goto(CAMPAIGN.replace("/?", "/privacy-policy?"));
    // No page memory there: its inline script put the parameters on its links (decision 038).
    await page.getByRole("contentinfo").getByRole("link", { name: "Hire QA Engineers" }).click();
    await expect(page).toHaveURL(new RegExp(`${CAMPAIGN.replace(/[?]/g, "\\?")}#contact$`));
    await waitForHydration(page);
    const values = await sendEnquiry(page);
    await expectSource({ storeDir, fake }, values.name, campaign, before);
    await expectNothingStored(page, context);
  });

  test("from another site: its origin only, never its path", async ({ page, context, fake, storeDir }) => {
    const before = await summary(storeDir);
    await page.goto("/", { referer: "https://www.linkedin.com/feed/update/urn:li:activity:1/?trk=x" });
    await waitForHydration(page);
    const values = await sendEnquiry(page);
    await expectSource({ storeDir, fake }, values.name, linkedIn, before);
    await expectNothingStored(page, context);
  });

  test("direct", async ({ page, context, fake, storeDir }) => {
    const before = await summary(storeDir);
    await page.goto("/");
    await waitForHydration(page);
    const values = await sendEnquiry(page);
    await expectSource({ storeDir, fake }, values.name, direct, before);
    await expectNothingStored(page, context);
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("from a newsletter's campaign link: the POST's Referer carries it", async ({
    page,
    context,
    fake,
    storeDir,
  }) => {
    const before = await summary(storeDir);
    await page.goto(CAMPAIGN);
    const posted = page.waitForRequest((request) => request.method() === "POST");
    const values = await sendEnquiry(page);
    expect(await (await posted).headerValue("referer")).toMatch(/\/\?utm_source=newsletter&utm_medium=email/);
    await expectSource({ storeDir, fake }, values.name, campaign, before);
    await expectNothingStored(page, context);
  });

  test("from an ad click with a gclid", async ({ page, context, fake, storeDir }) => {
    const before = await summary(storeDir);
    await page.goto(`/?gclid=${GCLID}`);
    const values = await sendEnquiry(page);
    await expectSource({ storeDir, fake }, values.name, adClick, before);
    await expectNothingStored(page, context);
  });

  test("after reading the privacy policy and coming back with the Back button, the campaign is kept", async ({
    page,
    context,
    fake,
    storeDir,
  }) => {
    const before = await summary(storeDir);
    await page.goto(CAMPAIGN);
    await page.getByRole("contentinfo").getByRole("link", { name: "Privacy Policy" }).click();
    await expect(page).toHaveURL(/\/privacy-policy$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Privacy Policy");
    await page.goBack();
    await expect(page).toHaveURL(new RegExp(`${CAMPAIGN.replace(/[?]/g, "\\?")}$`));
    const values = await sendEnquiry(page);
    await expectSource({ storeDir, fake }, values.name, campaign, before);
    await expectNothingStored(page, context);
  });

  test("from another site: without a script only this site's page is known, so it reads as direct", async ({
    page,
    context,
    fake,
    storeDir,
  }) => {
    const before = await summary(storeDir);
    await page.goto("/", { referer: "https://www.linkedin.com/feed/" });
    const values = await sendEnquiry(page);
    await expectSource({ storeDir, fake }, values.name, direct, before);
    await expectNothingStored(page, context);
  });

  test("direct", async ({ page, context, fake, storeDir }) => {
    const before = await summary(storeDir);
    await page.goto("/");
    const values = await sendEnquiry(page);
    await expectSource({ storeDir, fake }, values.name, direct, before);
    await expectNothingStored(page, context);
  });
});

test.describe("without JavaScript, over an IPv6 literal host", () => {
  test.use({
    javaScriptEnabled: false,
    baseURL: async ({ ipv6App }, use) => use(ipv6App.server.url),
  });

  test("from a newsletter's campaign link at http://[::1]:PORT: the POST's Referer is this site's page", async ({
    page,
    context,
    fake,
    ipv6App,
  }) => {
    const { storeDir } = ipv6App;
    const before = await summary(storeDir);
    await page.goto(CAMPAIGN);
    expect(new URL(page.url()).hostname).toBe("[::1]");
    const posted = page.waitForRequest((request) => request.method() === "POST");
    const values = await sendEnquiry(page);
    expect(await (await posted).headerValue("referer")).toBe(`${ipv6App.server.url}${CAMPAIGN}`);
    await expectSource({ storeDir, fake }, values.name, campaign, before);
    await expectNothingStored(page, context);
  });
});

test.describe("what anyone can send", () => {
  /** Posts the form as a browser without JavaScript would, with the given Referer and extra fields. */
  function post(
    app: RunningServer,
    name: string,
    referer: string | null,
    extra: Record<string, string> = {},
  ) {
    return fetch(`${app.url}/?index`, {
      method: "POST",
      headers: referer === null ? {} : { Referer: referer },
      body: new URLSearchParams(enquiryBody(validEnquiry({ name }), extra)),
      redirect: "manual",
    });
  }

  test("over-long, control-character, invisible and forged values are dropped one by one, and the enquiry goes through", async ({
    app,
    fake,
    storeDir,
  }) => {
    const query = new URLSearchParams({
      utm_source: "x".repeat(201),
      utm_medium: "email\u0007",
      utm_campaign: "launch\u202E",
      utm_term: "a\u200Bb",
      utm_content: "kept",
      gclid: GCLID,
      page: "2",
    });
    const name = validEnquiry().name;
    const response = await post(app, name, `${app.url}/?${query}`, {
      source_referrer: "https://www.linkedin.com/feed/",
    });
    expect(response.status).toBe(303);
    await expect.poll(() => leadNamed(storeDir, name)?.state).toBe("sent");
    expect(leadNamed(storeDir, name)?.source).toStrictEqual({
      landing: "/",
      parameters: { utm_content: "kept", gclid: GCLID },
    });
    expect(requestsFor(fake, name)[0]?.body).toMatchObject({
      template_params: { source: "google / cpc", click_id: `gclid=${GCLID}` },
    });

    // A Referer of another site, and a landing that is no path of this site, label nothing.
    const forged = validEnquiry().name;
    const answer = await post(app, forged, "https://evil.example/?utm_source=forged", {
      source_landing: "//evil.example/?utm_source=forged",
      source_referrer: "https://evil.example\u202E",
    });
    expect(answer.status).toBe(303);
    await expect.poll(() => leadNamed(storeDir, forged)?.state).toBe("sent");
    expect(leadNamed(storeDir, forged)).not.toHaveProperty("source");
    expect(requestsFor(fake, forged)[0]?.body).toMatchObject({
      template_params: { source: "unknown", click_id: "" },
    });
  });

  test("a quarantined lead keeps its source, and the summary counts it as quarantined", async ({
    app,
    storeDir,
  }) => {
    const before = await summary(storeDir);
    const name = validEnquiry().name;
    const response = await post(app, name, `${app.url}/?utm_source=spamhaus&utm_medium=bot`, {
      company_website: "https://spam.example",
    });
    expect(response.status).toBe(303);
    await expect.poll(() => leadNamed(storeDir, name)?.state).toBe("spam");
    expect(leadNamed(storeDir, name)?.source).toStrictEqual({
      landing: "/",
      parameters: { utm_source: "spamhaus", utm_medium: "bot" },
    });
    expect(await cliCell(storeDir, name, "source", ["--spam"])).toBe("spamhaus / bot");
    const was = before.get("spamhaus|bot|") ?? NONE;
    expect((await summary(storeDir)).get("spamhaus|bot|")).toEqual({
      ...was,
      quarantined: was.quarantined + 1,
    });
  });

  test("--sources counts the last N days only (30 by default), and refuses a bad N", async ({ storeDir }) => {
    // Delivered leads from an hour and from 40 days ago, as the store wrote them.
    const source = { landing: "/", parameters: { utm_source: "old-mailing", utm_medium: "email" } };
    const daysAgo = (days: number) => new Date(Date.now() - days * 24 * 60 * 60 * 1000).toISOString();
    const old = validEnquiry();
    writeLeadFile(storeDir, { enquiry: old, receivedAt: daysAgo(40), state: "sent", source });
    writeLeadFile(storeDir, { enquiry: validEnquiry(), receivedAt: daysAgo(1 / 24), state: "sent", source });
    const recent = readLeads(storeDir).filter((lead) => lead.enquiry.name !== old.name).length;
    const [lastDay, byDefault, sixtyDays] = await Promise.all([
      summary(storeDir, ["--days", "1"]),
      summary(storeDir),
      summary(storeDir, ["--days", "60"]),
    ]);
    const total = (rows: Map<string, Counts>) =>
      [...rows.values()].reduce((sum, row) => sum + row.delivered + row.waiting + row.quarantined, 0);
    expect(total(lastDay)).toBe(recent);
    expect(total(byDefault)).toBe(recent);
    expect(byDefault.get("old-mailing|email|")).toEqual({ delivered: 1, waiting: 0, quarantined: 0 });
    expect(sixtyDays.get("old-mailing|email|")).toEqual({ delivered: 2, waiting: 0, quarantined: 0 });
    await expect(runLeadsCli(storeDir, ["--sources", "--days", "0"])).rejects.toThrow(/usage/);
    await expect(runLeadsCli(storeDir, ["--sources", "--days", "x"])).rejects.toThrow(/usage/);
  });
});

test("the shared document of a campaign URL is still the clean URL's bytes and ETag", async ({ app }) => {
  const get = async (path: string) => {
    const response = await fetch(`${app.url}${path}`, { headers: { "Accept-Encoding": "br" } });
    return { etag: response.headers.get("ETag"), bytes: Buffer.from(await response.arrayBuffer()) };
  };
  const clean = await get("/");
  expect(clean.etag).toBeTruthy();
  for (const path of [CAMPAIGN, `/?gclid=${GCLID}`]) {
    const campaignDocument = await get(path);
    expect(campaignDocument.etag).toBe(clean.etag);
    expect(campaignDocument.bytes.equals(clean.bytes)).toBe(true);
  }
});
