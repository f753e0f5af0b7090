import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, type Page } from "@playwright/test";
import { privacyFactsFrom } from "../../app/content/privacy-facts.server";
import { RENDERINGS_FOLDER } from "../../app/enquiry/privacy-notice-renderings.server";
import { parseEnv } from "../../app/env.server";
import { PRIVACY_NOTICE_VERSION } from "../../app/privacy-notice";
import { publishedPrivacyNotice, readPublished } from "../../app/privacy-notice/published.server";
import type { PrivacyNoticeRecord } from "../../app/privacy-notice/record";
import { privacyNoticeSha256 } from "../../app/privacy-notice/rendering.server";
import { fillPrivacyNotice } from "../../app/privacy-notice/text";
import {
  type EnquiryValues,
  enquiryForm,
  fillEnquiry,
  NOTICE,
  validEnquiry,
  waitForHydration,
} from "../support/enquiry-page";
import { emailJsAppEnv, type FakeEmailJs } from "../support/fake-emailjs";
import { leadsCli, requestsFor } from "../support/lead-fixtures";
import type { TestPostgres } from "../support/postgres";
import { fakeHostFor, replicaTest } from "../support/postgres-fixtures";
import {
  databaseReady,
  databaseStatus,
  healthDetails,
  type RunningServer,
  startServer,
} from "../support/server-process";

// Each lead records the privacy notice its sender was shown, end to end: a real browser on the
// built server, with and without JavaScript, on the folder store and on PostgreSQL; the
// operator's `npm run leads -- --json` and `erase`; the HTTPS EmailJS fake. One fake at a time.
// Each test starts its own server (its store, its database), so pages go to absolute URLs; the
// node-24 project runs them again on the image's Node line.
const test = replicaTest(fakeHostFor(4));
test.describe.configure({ mode: "serial" });

/** Configured, so the recorded hash is of the text as this server fills it in. */
const SERVER_ENV: Record<string, string> = { ENQUIRY_RETENTION_DAYS: "45" };

/**
 * The record a lead should carry for the current privacy notice in `language`, hashed as a
 * server configured with `env` renders it.
 */
function shown(language: "en" | "hi", env = SERVER_ENV): PrivacyNoticeRecord {
  const text = publishedPrivacyNotice(readPublished(), PRIVACY_NOTICE_VERSION, language) ?? "";
  const facts = privacyFactsFrom(parseEnv(env, () => {}));
  return {
    version: PRIVACY_NOTICE_VERSION,
    language,
    sha256: privacyNoticeSha256(fillPrivacyNotice(text, facts)),
  };
}

const servers: RunningServer[] = [];
test.afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.stop()));
});

/**
 * A server on the test's folder, and on `databaseUrl` when given, started with `node`; and the
 * operator's `npm run leads` on the same store (from a folder of its own with the database).
 */
async function startApp(options: {
  fake: FakeEmailJs;
  folder: string;
  node: string;
  databaseUrl?: string;
  /** This server's settings (SERVER_ENV by default). */
  env?: Record<string, string>;
}) {
  const { fake, folder, node, databaseUrl, env = SERVER_ENV } = options;
  const storeDir = join(folder, "data");
  const database: Record<string, string> = databaseUrl ? { DATABASE_URL: databaseUrl } : {};
  const app = await startServer({
    env: { ...emailJsAppEnv(fake, storeDir), ...env, ...database },
    node,
  });
  servers.push(app);
  const leads = async (args: string[]) =>
    (await leadsCli(databaseUrl ? join(folder, "operator") : storeDir, args, database)).stdout;
  return { app, storeDir, leads };
}

/** A new database when the test runs on PostgreSQL; none on the data folder. */
async function databaseFor(store: "the data folder" | "PostgreSQL", postgres: TestPostgres) {
  return store === "PostgreSQL" ? await postgres.createDatabase() : undefined;
}

/** `npm run leads -- --json`, one object per lead. */
async function listed(leads: (args: string[]) => Promise<string>): Promise<Record<string, unknown>[]> {
  return (await leads(["--json"]))
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

/** Sends `values` through the home page's form, the privacy notice switched to `language` first. */
async function sendFromPage(
  page: Page,
  url: string,
  values: EnquiryValues,
  language: "en" | "hi",
  javaScript: boolean,
) {
  await page.goto(url);
  if (javaScript) await waitForHydration(page);
  await fillEnquiry(page, values);
  if (language === "hi")
    await page.locator("#privacy-notice").getByRole("radio", { name: "गोपनीयता सूचना: हिन्दी" }).check();
  const answer = page.waitForResponse((response) => response.request().method() === "POST");
  await enquiryForm(page).submit.click();
  await expect(enquiryForm(page).notice).toHaveText(NOTICE.sent);
  return (await answer).status();
}

/** The privacy notice's parameters EmailJS received with the enquiry from `name`. */
function noticeSent(fake: FakeEmailJs, name: string) {
  const [request] = requestsFor(fake, name);
  const params = (request?.body as { template_params?: Record<string, string> } | undefined)?.template_params;
  return {
    privacy_notice_version: params?.privacy_notice_version,
    privacy_notice_language: params?.privacy_notice_language,
    notice_version: params?.notice_version,
  };
}

/** The mail's parameters for the notice `version` in `language`; all empty when it is not known. */
function noticeParameters(version = "", language = "") {
  return {
    privacy_notice_version: version,
    privacy_notice_language: language,
    notice_version: version && `${version} ${language}`,
  };
}

/** The server's enquiry log lines, parsed. */
function enquiryLines(app: RunningServer): Record<string, unknown>[] {
  return app
    .output()
    .split("\n")
    .filter((line) => line.startsWith('{"event":"enquiry"'))
    .map((line) => JSON.parse(line));
}

/** Every file under `folder` whose text holds `text`. */
function filesHolding(folder: string, text: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((path) => readFileSync(path, "utf8").includes(text));
}

for (const store of ["the data folder", "PostgreSQL"] as const) {
  for (const javaScript of [true, false]) {
    const language = javaScript ? "hi" : "en";
    test.describe(`${javaScript ? "with" : "without"} JavaScript`, () => {
      test.use({ javaScriptEnabled: javaScript });

      test(`@process the lead keeps the privacy notice shown (${language}) in ${store}: --json shows it, EmailJS gets privacy_notice_version, privacy_notice_language and notice_version, erase removes it`, async ({
        page,
        fake,
        folder,
        postgres,
        serverNode,
      }) => {
        test.setTimeout(120_000);
        const databaseUrl = await databaseFor(store, postgres);
        const { app, storeDir, leads } = await startApp({ fake, folder, node: serverNode, databaseUrl });
        const values = validEnquiry();
        const record = shown(language);
        await sendFromPage(page, app.url, values, language, javaScript);

        await expect.poll(() => requestsFor(fake, values.name).length, { timeout: 15_000 }).toBe(1);
        expect(noticeSent(fake, values.name)).toEqual(noticeParameters(PRIVACY_NOTICE_VERSION, language));

        await expect
          .poll(async () => (await listed(leads)).find((lead) => lead.name === values.name)?.state, {
            timeout: 15_000,
          })
          .toBe("sent");
        expect((await listed(leads)).find((lead) => lead.name === values.name)?.privacyNotice).toEqual(
          record,
        );
        if (databaseUrl) {
          const name = new URL(databaseUrl).pathname.slice(1);
          expect(await postgres.sql("SELECT privacy_notice FROM leads", [], name)).toEqual([
            { privacy_notice: record },
          ]);
        } else {
          expect(filesHolding(join(storeDir, "leads"), record.sha256)).toHaveLength(1);
        }

        expect(await leads(["erase", values.email])).toContain("Erased 1 lead of that person.");
        expect(await listed(leads)).toEqual([]);
        if (databaseUrl) {
          const name = new URL(databaseUrl).pathname.slice(1);
          expect(await postgres.sql("SELECT count(*)::int AS count FROM leads", [], name)).toEqual([
            { count: 0 },
          ]);
        } else {
          // The text the page showed stays (it is the site's, and other leads may name it).
          const rendering = join(storeDir, RENDERINGS_FOLDER, `${record.sha256}.json`);
          expect(filesHolding(storeDir, record.sha256)).toEqual([rendering]);
        }
      });
    });
  }
}

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("@process a page left open across a deploy posts a version this server does not know: 303, the lead kept without a record", async ({
    page,
    fake,
    folder,
    serverNode,
  }) => {
    const { app, storeDir, leads } = await startApp({ fake, folder, node: serverNode });
    // The page as an older release served it: another version in the hidden field.
    await page.route(`${app.url}/`, async (route) => {
      const response = await route.fetch();
      const html = (await response.text()).replaceAll(
        `value="${PRIVACY_NOTICE_VERSION}"`,
        'value="2020-01-01"',
      );
      await route.fulfill({ response, body: html });
    });
    const values = validEnquiry();
    const posted = page.waitForRequest((request) => request.method() === "POST");
    expect(await sendFromPage(page, app.url, values, "en", false)).toBe(303);
    expect(new URLSearchParams((await posted).postData() ?? "").get("privacy_notice_version")).toBe(
      "2020-01-01",
    );

    await expect.poll(() => requestsFor(fake, values.name).length, { timeout: 15_000 }).toBe(1);
    expect(noticeSent(fake, values.name)).toEqual(noticeParameters());
    const [lead] = (await listed(leads)).filter((each) => each.name === values.name);
    expect(lead).toBeDefined();
    expect(lead).not.toHaveProperty("privacyNotice");
    expect(filesHolding(storeDir, '"privacyNotice"')).toEqual([]);
  });

  test("@process during a database outage with the spool unwritable the enquiry is sent directly, and EmailJS still gets the privacy notice's parameters", async ({
    page,
    fake,
    folder,
    databaseUrl,
    postgres,
    serverNode,
  }) => {
    test.setTimeout(120_000);
    const { app, storeDir } = await startApp({ fake, folder, node: serverNode, databaseUrl });
    await expect
      .poll(async () => databaseStatus(await healthDetails(app.url)), { timeout: 30_000 })
      .toBe("ok");
    // A file where the spool's folder would be: what the database cannot take cannot be spooled either.
    mkdirSync(storeDir, { recursive: true });
    writeFileSync(join(storeDir, "spool"), "a file where the spool's folder must be");
    await postgres.stop();
    try {
      await expect
        .poll(async () => databaseStatus(await healthDetails(app.url)), { timeout: 30_000 })
        .toMatch(/^unreachable: /);
      const values = validEnquiry();
      expect(await sendFromPage(page, app.url, values, "hi", false)).toBe(303);
      // Sent while the visitor waited: the store never held it.
      expect(requestsFor(fake, values.name)).toHaveLength(1);
      expect(noticeSent(fake, values.name)).toEqual(noticeParameters(PRIVACY_NOTICE_VERSION, "hi"));
      expect(enquiryLines(app)).toContainEqual(
        expect.objectContaining({ outcome: "sent", privacyNotice: `${PRIVACY_NOTICE_VERSION} hi` }),
      );
    } finally {
      await postgres.start();
    }
  });
});

/** The NOTICE_SECRET servers behind one site share, so either one shows the other's success notice. */
const NOTICE_SECRET = "one-secret-for-every-server-of-the-site";
/** Two servers of one site with other settings, as during a rolling deploy or a change of settings. */
const SERVER_A = {
  ENQUIRY_RETENTION_DAYS: "90",
  PRIVACY_CONTACT: "Asha Rao <asha@example.in>",
  NOTICE_SECRET,
};
const SERVER_B = {
  ENQUIRY_RETENTION_DAYS: "30",
  PRIVACY_CONTACT: "Dev Iyer <dpo@example.in>",
  NOTICE_SECRET,
};

/** The words a store keeps for `sha256`: its file in the data folder, or its row in `database`. */
async function wordsOf(
  sha256: string,
  where: { storeDir: string } | { database: string; postgres: TestPostgres },
): Promise<string | undefined> {
  if ("storeDir" in where) {
    const path = join(where.storeDir, RENDERINGS_FOLDER, `${sha256}.json`);
    return existsSync(path) ? JSON.parse(readFileSync(path, "utf8")).text : undefined;
  }
  const rows = await where.postgres.sql<{ text: string }>(
    "SELECT text FROM privacy_notice_renderings WHERE sha256 = $1",
    [sha256],
    where.database,
  );
  return rows[0]?.text;
}

test.describe("a page from one server, its enquiry taken by another", () => {
  test.use({ javaScriptEnabled: false });

  for (const store of ["the data folder", "PostgreSQL"] as const) {
    test(`@process server A (90 days) serves the page, server B (30 days, another contact) takes the POST: the lead records the text A showed, in ${store}`, async ({
      page,
      fake,
      folder,
      postgres,
      serverNode,
    }) => {
      test.setTimeout(120_000);
      const databaseUrl = await databaseFor(store, postgres);
      const [a, b] = await Promise.all(
        [SERVER_A, SERVER_B].map((env) => startApp({ fake, folder, node: serverNode, databaseUrl, env })),
      );
      if (a === undefined || b === undefined) throw new Error("two servers were started");
      const ofA = shown("hi", SERVER_A);
      const ofB = shown("hi", SERVER_B);
      expect(ofA.sha256).not.toBe(ofB.sha256);
      if (databaseUrl) await Promise.all([databaseReady(a.app.url), databaseReady(b.app.url)]);
      const where = databaseUrl
        ? { database: new URL(databaseUrl).pathname.slice(1), postgres }
        : { storeDir: a.storeDir };
      // A has recorded what its page shows where B reads it.
      await expect.poll(() => wordsOf(ofA.sha256, where), { timeout: 30_000 }).toContain("90 दिन");
      expect(await wordsOf(ofA.sha256, where)).toContain("asha@example.in");

      // Every POST to A goes to B instead, as a load balancer may send it; B's 303 leads back to A.
      const aOrigin = new URL(a.app.url).origin;
      await page.route(
        (url) => url.origin === aOrigin && url.search === "?index",
        async (route) => {
          if (route.request().method() !== "POST") return route.fallback();
          // The site's own Host, as a proxy forwards it (Remix refuses an action whose Origin is another host).
          const headers = { ...route.request().headers(), host: new URL(a.app.url).host };
          const response = await route.fetch({ url: `${b.app.url}/?index`, headers, maxRedirects: 0 });
          await route.fulfill({ response });
        },
      );
      const values = validEnquiry();
      const posted = page.waitForRequest((request) => request.method() === "POST");
      expect(await sendFromPage(page, a.app.url, values, "hi", false)).toBe(303);
      expect(new URLSearchParams((await posted).postData() ?? "").get("privacy_notice_sha256_hi")).toBe(
        ofA.sha256,
      );
      expect(enquiryLines(a.app)).toEqual([]);
      expect(enquiryLines(b.app)).toEqual([
        expect.objectContaining({ outcome: "stored", privacyNotice: `${PRIVACY_NOTICE_VERSION} hi` }),
      ]);

      await expect.poll(() => requestsFor(fake, values.name).length, { timeout: 15_000 }).toBe(1);
      expect(noticeSent(fake, values.name)).toEqual(noticeParameters(PRIVACY_NOTICE_VERSION, "hi"));
      const lead = (await listed(a.leads)).find((each) => each.name === values.name);
      expect(lead?.privacyNotice).toEqual(ofA);
      expect(await wordsOf(ofA.sha256, where)).toBe(
        fillPrivacyNotice(publishedPrivacyNotice(readPublished(), PRIVACY_NOTICE_VERSION, "hi") ?? "", {
          retentionDays: 90,
          contact: { email: "asha@example.in" },
        }),
      );
    });
  }

  test("@process a hash of a text no server of the site showed records no privacy notice; the enquiry is still taken (303)", async ({
    page,
    fake,
    folder,
    serverNode,
  }) => {
    const { app, storeDir, leads } = await startApp({ fake, folder, node: serverNode });
    const honest = shown("hi").sha256;
    // The notice as it would read with a retention of 7 days: well formed, never rendered here.
    const forged = shown("hi", { ENQUIRY_RETENTION_DAYS: "7" }).sha256;
    await page.route(`${app.url}/`, async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, body: (await response.text()).replaceAll(honest, forged) });
    });
    const values = validEnquiry();
    const posted = page.waitForRequest((request) => request.method() === "POST");
    expect(await sendFromPage(page, app.url, values, "hi", false)).toBe(303);
    expect(new URLSearchParams((await posted).postData() ?? "").get("privacy_notice_sha256_hi")).toBe(forged);

    await expect.poll(() => requestsFor(fake, values.name).length, { timeout: 15_000 }).toBe(1);
    expect(noticeSent(fake, values.name)).toEqual(noticeParameters());
    expect(enquiryLines(app)).toEqual([{ event: "enquiry", outcome: "stored", ms: expect.any(Number) }]);
    const lead = (await listed(leads)).find((each) => each.name === values.name);
    expect(lead).toBeDefined();
    expect(lead).not.toHaveProperty("privacyNotice");
    expect(await wordsOf(forged, { storeDir })).toBeUndefined();
  });
});
