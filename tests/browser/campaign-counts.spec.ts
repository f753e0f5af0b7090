import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import AxeBuilder from "@axe-core/playwright";
import type { BrowserContext, Page } from "@playwright/test";
import type { Report } from "~/campaigns/report";
import { HONEYPOT_FIELD } from "~/enquiry/trap-fields";
import { pageSendsBundle } from "../support/bundle-routes";
import { enquiryForm, fillEnquiry, NOTICE, validEnquiry, waitForHydration } from "../support/enquiry-page";
import { figures } from "../support/fault-watch";
import { leadsCli } from "../support/lead-fixtures";
import { fakeHostFor, replicaTest } from "../support/postgres-fixtures";
import { startReplicas } from "../support/replicas";
import { type RunningServer, startServer } from "../support/server-process";
import { largestPaintDone, reporterRunning } from "../support/vitals-reporter";

// Issue 53 as a visitor and a marketer meet it: a real browser lands from a campaign link on the
// built server, sends an enquiry and taps WhatsApp; `npm run report -- --json` counts 1, 1 and 1
// for that campaign, on the data folder and on PostgreSQL behind two replicas
// (docs/decisions/050-campaign-counts.md).

const test = replicaTest(fakeHostFor(53));
const { expect } = test;
test.describe.configure({ mode: "default", timeout: 180_000 });

/** Another site the visitor comes from: its host is counted, never its path. */
const REFERRER = "https://mail.example.com/inbox/12345";

/** `npm run report` (the build's report.js) on a data folder or a database. */
async function report(env: Record<string, string>, args: string[] = ["--json"]): Promise<string> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [join(process.cwd(), "build/report.js"), ...args],
    {
      env: { PATH: process.env.PATH ?? "", NODE_ENV: "production", ...env },
    },
  );
  return stdout;
}

/** The report's line for campaign `name` (visits, enquiries, taps), or none yet. */
async function countsOf(env: Record<string, string>, name: string) {
  const json = JSON.parse(await report(env)) as Report;
  const line = json.campaigns.find((campaign) => campaign.campaign === name);
  return (
    line && {
      visits: line.visits,
      enquiries: line.enquiries,
      whatsappTaps: line.whatsappTaps,
      rate: line.rate,
    }
  );
}

/** A landing URL of a newsletter's campaign `name`, with an ad-click id the report never shows. */
const landingUrl = (base: string, path: string, name: string) =>
  `${base}${path}?utm_source=newsletter&utm_medium=email&utm_campaign=${encodeURIComponent(name)}&fbclid=SECRET-CLICK`;

/** Taps the "Chat on WhatsApp" link of #contact (or the footer's); WhatsApp itself is answered by the test. */
async function tapWhatsApp(page: Page, context: BrowserContext, where: "#contact" | "footer" = "#contact") {
  await context.route("https://wa.me/**", (route) =>
    route.fulfill({ contentType: "text/html", body: "<title>WhatsApp</title>" }),
  );
  const popup = context.waitForEvent("page");
  await page
    .locator(where)
    .getByRole("link", { name: /WhatsApp/ })
    .first()
    .click();
  await (await popup).close();
}

/** A server of its own, on a data folder of its own. */
async function ownServer(): Promise<{ server: RunningServer; folder: string; env: Record<string, string> }> {
  const folder = mkdtempSync(join(tmpdir(), "campaigns-e2e-"));
  const env = { ENQUIRY_STORE_DIR: folder };
  const server = await startServer({ env: { ...env, ENQUIRY_FLOOD_LIMIT: "0" } });
  return { server, folder, env };
}

test.describe("on the data folder", () => {
  let app: Awaited<ReturnType<typeof ownServer>>;
  test.beforeAll(async () => {
    app = await ownServer();
  });
  test.afterAll(async () => {
    await app.server.stop();
    rmSync(app.folder, { recursive: true, force: true });
  });

  test("a landing from a campaign link, an enquiry and a WhatsApp tap count 1, 1 and 1; erasing the lead keeps its count; the HTML report charts it", async ({
    page,
    context,
  }, testInfo) => {
    const name = `october-${randomUUID().slice(0, 8)}`;
    await page.goto(landingUrl(app.server.url, "/", name), { referer: REFERRER });
    await waitForHydration(page);
    await reporterRunning(page);
    const values = validEnquiry({ name: `Campaign ${name}` });
    await fillEnquiry(page, values);
    await enquiryForm(page).submit.click();
    await expect(enquiryForm(page).notice).toContainText(NOTICE.sent);
    await tapWhatsApp(page, context);
    // The landing's beacon leaves as the page is hidden.
    await page.goto("about:blank");
    await expect
      .poll(() => countsOf(app.env, name), { timeout: 30_000 })
      .toEqual({
        visits: 1,
        enquiries: 1,
        whatsappTaps: 1,
        rate: 1,
      });
    const stored = readFileSync(
      join(app.folder, "campaigns", `${JSON.parse(await report(app.env)).until}.log`),
      "utf8",
    );
    expect(stored).toContain('"mail.example.com"');
    expect(stored).toContain('"fbclid"');
    expect(stored).not.toContain("SECRET-CLICK");
    expect(stored).not.toContain("inbox");

    // The person asks to be forgotten: the lead goes, its count stays.
    const erased = await leadsCli(app.folder, ["erase", values.email]);
    expect(erased.stdout).toMatch(/^Erased 1 lead of that person\.$/m);
    expect(await countsOf(app.env, name)).toMatchObject({ enquiries: 1 });

    // The HTML report: a chart per campaign, drawn as SVG, readable on a phone, clean for axe.
    const file = testInfo.outputPath("campaigns.html");
    await report(app.env, ["--html", file]);
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto(`file://${file}`);
    const chart = page.getByRole("img", { name: new RegExp(`newsletter / email / ${name}: daily visits`) });
    await expect(chart).toBeVisible();
    await expect(chart).toHaveAccessibleName(/1 visit and 1 enquiry in all/);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
    await page.screenshot({ path: testInfo.outputPath("campaigns-report.png"), fullPage: true });
    figures(
      testInfo,
      "campaign counts",
      `${name}: ${JSON.stringify(await countsOf(app.env, name))} after the erasure`,
    );
    // The report as the marketer reads it, of every visit this worker's tests made so far.
    console.log(await report(app.env, []));
  });

  test("a second page of the same visit adds no visit, and a page without the bundle counts its landing and its taps", async ({
    page,
    context,
  }) => {
    const name = `insights-${randomUUID().slice(0, 8)}`;
    await page.goto(landingUrl(app.server.url, "/insights", name), { referer: REFERRER });
    await reporterRunning(page, false);
    await page.evaluate(largestPaintDone);
    await tapWhatsApp(page, context, "footer");
    // The site's own link (its campaign carried along by the page): a page of this site is no landing.
    await page.locator("main").getByRole("link").filter({ hasText: /\S/ }).first().click();
    await expect(page).not.toHaveURL(/\/insights\?/);
    expect(new URL(page.url()).searchParams.get("utm_campaign")).toBe(name);
    const bundled = pageSendsBundle(new URL(page.url()).pathname);
    if (bundled) await waitForHydration(page);
    await reporterRunning(page, bundled);
    await page.goto("about:blank");
    // The second page's beacon is in (its tap counts to the campaign too): a landing of it would have come with it.
    await expect
      .poll(() => countsOf(app.env, name), { timeout: 30_000 })
      .toMatchObject({ visits: 1, whatsappTaps: 1 });
    const json = JSON.parse(await report(app.env)) as Report;
    expect(json.campaigns.find((line) => line.campaign === name)).toMatchObject({ visits: 1, enquiries: 0 });
  });

  test("with Global Privacy Control a landing and a tap count nothing; the enquiry still counts", async ({
    page,
    context,
    browser,
  }) => {
    const name = `gpc-${randomUUID().slice(0, 8)}`;
    await context.addInitScript(() =>
      Object.defineProperty(Navigator.prototype, "globalPrivacyControl", { get: () => true }),
    );
    await page.goto(landingUrl(app.server.url, "/", name), { referer: REFERRER });
    await waitForHydration(page);
    const values = validEnquiry({ name: `Private ${name}` });
    await fillEnquiry(page, values);
    await enquiryForm(page).submit.click();
    await expect(enquiryForm(page).notice).toContainText(NOTICE.sent);
    await tapWhatsApp(page, context);
    await page.goto("about:blank");
    // A witness: a later visit without the signal, from a campaign of its own, is counted; the
    // private one's page was hidden before it, so anything it sent has arrived.
    const witness = `${name}-witness`;
    const other = await browser.newPage();
    await other.goto(landingUrl(app.server.url, "/cookie-policy", witness), { referer: REFERRER });
    await reporterRunning(other, false);
    await other.evaluate(largestPaintDone);
    await other.goto("about:blank");
    await other.close();
    await expect.poll(() => countsOf(app.env, witness), { timeout: 30_000 }).toMatchObject({ visits: 1 });
    expect(await countsOf(app.env, name)).toEqual({ visits: 0, enquiries: 1, whatsappTaps: 0, rate: null });
  });
});

test("two replicas on one PostgreSQL count a visit and an enquiry posted to both once", async ({
  page,
  fake,
  folder,
  databaseUrl,
  serverNode,
}) => {
  const set = await startReplicas({
    databaseUrl,
    fake,
    folder,
    node: serverNode,
    count: 2,
    env: { ENQUIRY_FLOOD_LIMIT: "0" },
  });
  try {
    const name = `replicas-${randomUUID().slice(0, 8)}`;
    await page.goto(landingUrl(set.proxy.url, "/", name), { referer: REFERRER });
    await waitForHydration(page);
    await reporterRunning(page);
    await page.goto("about:blank");
    // The same enquiry, from the same landing, sent twice: the round-robin proxy gives one to each replica.
    const values = validEnquiry({ name: `Twice ${name}` });
    const referer = landingUrl(set.proxy.url, "/", name);
    const answered = new Set<string>();
    for (let post = 0; post < 2; post += 1) {
      const response = await fetch(`${set.proxy.url}/?index`, {
        method: "POST",
        body: new URLSearchParams({ [HONEYPOT_FIELD]: "", ...values }),
        headers: { Referer: referer },
        redirect: "manual",
      });
      expect(response.status).toBe(303);
      answered.add(response.headers.get("location")?.replace(/^.*\.(NRM-[^.]+)\..*$/, "$1") ?? "");
    }
    // One reference for both: one lead.
    expect(answered.size).toBe(1);
    const env = { DATABASE_URL: databaseUrl, ENQUIRY_STORE_DIR: join(folder, "operator") };
    await expect
      .poll(() => countsOf(env, name), { timeout: 30_000 })
      .toEqual({
        visits: 1,
        enquiries: 1,
        whatsappTaps: 0,
        rate: 1,
      });
  } finally {
    await set.stop();
  }
});
