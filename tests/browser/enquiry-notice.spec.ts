import type { Browser, Page } from "@playwright/test";
import { startCachingProxy } from "../support/caching-proxy";
import {
  enquiryBody,
  enquiryForm,
  fillEnquiry,
  NOTICE,
  validEnquiry,
  waitForHydration,
} from "../support/enquiry-page";
import { expect, test } from "../support/fixtures";
import { guideCacheKey } from "../support/nginx-guide";
import { raw } from "../support/raw-http";
import { startServer } from "../support/server-process";

// The default server: no EmailJS (leads stay in the store's inbox), no rate limit.

// The token: the lead's id, its expiry, the enquiry's reference (shown without JavaScript), the signature.
const LANDING =
  /^\/\?enquiry=[A-Za-z0-9_-]{22}\.[0-9a-z]+\.NRM-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}\.[A-Za-z0-9_-]{22}#contact$/;

function landingOf(page: Page): string {
  const url = new URL(page.url());
  return `${url.pathname}${url.search}`;
}

/** Sends a valid enquiry through the page's form and resolves with the POST's answer. */
async function sendEnquiry(page: Page) {
  await fillEnquiry(page, validEnquiry());
  const posted = page.waitForResponse((response) => response.request().method() === "POST");
  await enquiryForm(page).submit.click();
  return posted;
}

/** Another visitor: a browser context of its own, sharing nothing with the sender's. */
async function otherVisitor(browser: Browser, baseURL: string | undefined, javaScriptEnabled: boolean) {
  const context = await browser.newContext({ baseURL, javaScriptEnabled });
  return { page: await context.newPage(), close: () => context.close() };
}

/** A GET (or HEAD) without cookies, its body as text. */
async function rawGet(url: string, headers: Record<string, string> = {}, method = "GET") {
  const answer = await raw(undefined, url, headers, method);
  return { ...answer, body: answer.body.toString("utf8") };
}

/** A landing URL of a real send, without following the redirect. */
async function freshLanding(
  baseURL: string | undefined,
  request: import("@playwright/test").APIRequestContext,
) {
  const posted = await request.post(`${baseURL}/?index`, {
    form: enquiryBody(validEnquiry()),
    maxRedirects: 0,
  });
  expect(posted.status()).toBe(303);
  const location = posted.headers().location ?? "";
  expect(location).toMatch(LANDING);
  return { location, path: location.replace(/#contact$/, ""), posted };
}

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the sender sees the notice; the next visitor of the same URL, and the sender's reload, do not", async ({
    page,
    browser,
    baseURL,
  }) => {
    await page.goto("/");
    expect((await sendEnquiry(page)).status()).toBe(303);
    await expect(page).toHaveURL((url) => LANDING.test(`${url.pathname}${url.search}${url.hash}`));
    await expect(enquiryForm(page).notice).toHaveText(NOTICE.sent);
    const landing = landingOf(page);

    const other = await otherVisitor(browser, baseURL, false);
    try {
      const response = await other.page.goto(`${landing}#contact`);
      expect(response?.status()).toBe(200);
      await expect(enquiryForm(other.page).form).toBeVisible();
      await expect(enquiryForm(other.page).notice).toBeEmpty();
      await expect(other.page.getByText(NOTICE.sent)).toHaveCount(0);
    } finally {
      await other.close();
    }
    await page.reload();
    await expect(enquiryForm(page).notice).toBeEmpty();
  });

  test("editing the landing URL forges no notice", async ({ page, baseURL, request }) => {
    const { path } = await freshLanding(baseURL, request);
    const token = new URL(path, "http://x").searchParams.get("enquiry") ?? "";
    const [id = "", expires = "", mac = ""] = token.split(".");
    const swap = (text: string, at: number) =>
      `${text.slice(0, at)}${text[at] === "a" ? "b" : "a"}${text.slice(at + 1)}`;
    const later = (Number.parseInt(expires, 36) + 86_400).toString(36);
    for (const forged of [
      `${swap(id, 3)}.${expires}.${mac}`,
      `${id}.${later}.${mac}`,
      `${id}.${expires}.${swap(mac, 5)}`,
      `${id}.${expires}.${mac.slice(0, -1)}${mac.endsWith("A") ? "B" : "A"}`,
      "sent",
      "1",
      `${token}.${token}`,
    ]) {
      await page.goto(`/?enquiry=${encodeURIComponent(forged)}#contact`);
      await expect(enquiryForm(page).form).toBeVisible();
      await expect(enquiryForm(page).notice, forged).toBeEmpty();
    }
    // None of the attempts used the genuine token up.
    await page.goto(`${path}#contact`);
    await expect(enquiryForm(page).notice).toHaveText(NOTICE.sent);
  });

  test("behind a cache keyed by URL that forwards no cookies, the sender still sees the notice and the next visitor does not", async ({
    browser,
    baseURL,
  }) => {
    for (const key of [undefined, guideCacheKey()]) {
      const proxy = await startCachingProxy(baseURL ?? "", key);
      const sender = await otherVisitor(browser, proxy.url, false);
      const { page } = sender;
      try {
        // The cache holds the home page first, as it would on a busy day.
        await page.goto(`${proxy.url}/`);
        await page.goto(`${proxy.url}/?utm_source=newsletter`);
        expect(proxy.stored().length).toBeGreaterThan(0);
        expect((await sendEnquiry(page)).status()).toBe(303);
        await expect(enquiryForm(page).notice).toHaveText(NOTICE.sent);
        const landing = landingOf(page);
        expect(proxy.originRequests).toContain(`GET ${landing}`);

        const other = await otherVisitor(browser, proxy.url, false);
        try {
          await other.page.goto(`${landing}#contact`);
          await expect(enquiryForm(other.page).form).toBeVisible();
          await expect(enquiryForm(other.page).notice).toBeEmpty();
        } finally {
          await other.close();
        }
        expect(proxy.stored().some((stored) => stored.includes("enquiry"))).toBe(false);
      } finally {
        await sender.close();
        await proxy.stop();
      }
    }
  });
});

test.describe("with JavaScript", () => {
  test("the toast shows, the token leaves the address bar without a reload, and the next visitor sees nothing", async ({
    page,
    browser,
    baseURL,
  }) => {
    await page.goto("/");
    await waitForHydration(page);
    // Gone if the page reloads.
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    const dataRequests: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes(".data")) dataRequests.push(new URL(request.url()).search);
    });
    await sendEnquiry(page);
    const form = enquiryForm(page);
    await expect(form.notice).toHaveText(NOTICE.sent);
    await expect(page).toHaveURL(
      (url) => url.pathname === "/" && url.search === "" && url.hash === "#contact",
    );
    // The page's data came once, with the token; dropping the token fetched nothing again.
    const withToken = dataRequests.filter((search) => search.includes("enquiry="));
    expect(withToken).toHaveLength(1);
    expect(
      dataRequests.filter((search) => !search.includes("enquiry=") && !search.includes("index")),
    ).toEqual([]);
    await expect(form.notice).toHaveText(NOTICE.sent);
    const token = new URLSearchParams(withToken[0]).get("enquiry") ?? "";
    expect(await page.evaluate(() => "sameDocument" in window)).toBe(true);

    const other = await otherVisitor(browser, baseURL, true);
    try {
      await other.page.goto(`/?enquiry=${token}#contact`);
      await waitForHydration(other.page);
      await expect(enquiryForm(other.page).notice).toBeEmpty();
    } finally {
      await other.close();
    }
  });

  test("an edited token shows no toast", async ({ page, baseURL, request }) => {
    const { path } = await freshLanding(baseURL, request);
    await page.goto(`${path.slice(0, -3)}${path.endsWith("a") ? "bcd" : "abc"}#contact`);
    await waitForHydration(page);
    await expect(enquiryForm(page).notice).toBeEmpty();
    // The page still loses the parameter from the address bar, and works.
    await expect(page).toHaveURL((url) => url.search === "");
  });
});

test("the landing URL is never answered with a shareable Cache-Control, even to a request without cookies", async ({
  baseURL,
  request,
}) => {
  const { path, posted } = await freshLanding(baseURL, request);
  expect(posted.headers()["cache-control"]).toBe("no-store");
  expect(posted.headers()["set-cookie"]).toBeUndefined();
  const url = `${baseURL}${path}`;
  // HEAD first: it must not use the token up.
  const head = await rawGet(url, {}, "HEAD");
  expect(head.headers["cache-control"]).toBe("private, no-store");
  const answers = [
    await rawGet(url),
    await rawGet(url, { "If-None-Match": "*" }),
    await rawGet(url, { "Accept-Encoding": "br" }),
    await rawGet(`${baseURL}/_root.data${new URL(url).search}`),
    await rawGet(`${baseURL}/?enquiry=forged`),
    await rawGet(`${baseURL}/?enquiry=${new URL(url).searchParams.get("enquiry")}&utm_source=x`),
    await rawGet(`${baseURL}/_root.data?enquiry=forged`),
  ];
  expect(answers[0]?.body).toContain(NOTICE.sent);
  for (const answer of [head, ...answers]) {
    expect(answer.status).toBe(200);
    expect(answer.headers["cache-control"]).toBe("private, no-store");
    expect(answer.headers.etag).toBeUndefined();
    expect(answer.headers["set-cookie"]).toBeUndefined();
  }
  for (const answer of answers.slice(1)) expect(answer.body).not.toContain(NOTICE.sent);
});

// biome-ignore lint/correctness/noEmptyPattern: Playwright requires a destructuring pattern here.
test("servers sharing the data folder and NOTICE_SECRET read each other's tokens once", async ({}, testInfo) => {
  const storeDir = testInfo.outputPath("shared-store");
  const env = { ENQUIRY_STORE_DIR: storeDir, ENQUIRY_RATE_LIMIT: "0", NOTICE_SECRET: "s".repeat(40) };
  const [a, b] = await Promise.all([startServer({ env, quiet: true }), startServer({ env, quiet: true })]);
  try {
    expect(a.output()).not.toContain("NOTICE_SECRET is not set");
    const posted = await fetch(`${a.url}/?index`, {
      method: "POST",
      body: new URLSearchParams(enquiryBody(validEnquiry())),
      redirect: "manual",
    });
    const path = (posted.headers.get("location") ?? "").replace(/#contact$/, "");
    expect((await rawGet(`${b.url}${path}`)).body).toContain(NOTICE.sent);
    expect((await rawGet(`${a.url}${path}`)).body).not.toContain(NOTICE.sent);
    expect((await rawGet(`${b.url}${path}`)).body).not.toContain(NOTICE.sent);
  } finally {
    await Promise.all([a.stop(), b.stop()]);
  }
});
