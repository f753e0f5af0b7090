import { startCachingProxy } from "../support/caching-proxy";
import { waitForHydration } from "../support/enquiry-page";
import { expect, test } from "../support/fixtures";
import { guideCacheKey } from "../support/nginx-guide";
import { type RawResponse, raw } from "../support/raw-http";
import { startServer } from "../support/server-process";

const browser = { "Accept-Encoding": "gzip, deflate, br, zstd" };
const siteUrl = "https://www.nirmaan.digital";
const shared = ["/", "/terms-conditions", "/privacy-policy", "/cookie-policy"];

/** What ads, newsletters and social posts append: one query per platform, and all of them at once. */
const campaigns = [
  "utm_source=newsletter&utm_medium=email&utm_campaign=launch",
  "gclid=Cj0KCQiA7se8BhCAARIsAKnF3rz",
  "gbraid=0AAAAAo&wbraid=CjkKCQ",
  "dclid=CJ3k8vq",
  "fbclid=IwAR2F4-dbP0l7Mn1IawQQGCINEz7PYXQvwjNwB_qa2ofrHyiLjcbCRxTDMgk",
  "msclkid=1a2b3c4d5e6f",
  "ttclid=E.C.P.abc&twclid=2-abc",
  "li_fat_id=5f1c&mc_cid=2c1d&mc_eid=9e8f",
  "_ga=2.1234.5678&_gl=1*1abc*_ga*MTIz",
  "igshid=MzRlODBiNWFlZA==&ref=producthunt",
  "utm_source=google&utm_medium=cpc&gclid=abc&fbclid=def&ref=x",
];

const foreignCookies = [
  "_ga=GA1.1.1234567890.1700000000; _ga_ABC123=GS1.1.1700000000.1.0.1700000000.0.0.0",
  "__cf_bm=v3ryL0ngT0k3n.abc-1700000000-0-AbC=; cf_clearance=xyz.123-1700000000-0-150",
  "CookieConsent={stamp:%27abc%27%2Cnecessary:true}; OptanonConsent=isGpcEnabled=0",
];

function expectSameDocument(answer: RawResponse, clean: RawResponse, label: string) {
  expect(answer.status, label).toBe(200);
  expect(answer.headers.etag, label).toBe(clean.headers.etag);
  expect(Buffer.compare(answer.body, clean.body), label).toBe(0);
  for (const name of [
    "cache-control",
    "content-security-policy",
    "content-encoding",
    "vary",
    "content-type",
  ]) {
    expect(answer.headers[name], `${label}: ${name}`).toBe(clean.headers[name]);
  }
  expect(answer.headers["cache-control"]).toMatch(/^public, max-age=0, s-maxage=300,/);
  expect(answer.headers["set-cookie"]).toBeUndefined();
}

test("campaign URLs get the shared document's bytes, ETag and shareable Cache-Control", async ({
  baseURL,
}) => {
  for (const path of shared) {
    const clean = await raw(baseURL, path, browser);
    for (const query of campaigns) {
      expectSameDocument(await raw(baseURL, `${path}?${query}`, browser), clean, `${path}?${query}`);
    }
    // An empty query is no query.
    expectSameDocument(await raw(baseURL, `${path}?`, browser), clean, `${path}?`);
  }
});

test("a campaign URL revalidates against the shared ETag: 304, no body", async ({ baseURL }) => {
  const clean = await raw(baseURL, "/", browser);
  const etag = String(clean.headers.etag);
  for (const query of campaigns) {
    const notModified = await raw(baseURL, `/?${query}`, { ...browser, "If-None-Match": etag });
    expect(notModified.status, query).toBe(304);
    expect(notModified.body).toHaveLength(0);
    expect(notModified.headers.etag).toBe(etag);
    expect(notModified.headers["cache-control"]).toBe(clean.headers["cache-control"]);
  }
});

test("requests carrying other sites' cookies get the shared document too", async ({ baseURL }) => {
  for (const path of shared) {
    const clean = await raw(baseURL, path, browser);
    for (const cookie of foreignCookies) {
      expectSameDocument(
        await raw(baseURL, path, { ...browser, Cookie: cookie }),
        clean,
        `${path} ${cookie}`,
      );
      const campaign = await raw(baseURL, `${path}?${campaigns[0]}`, { ...browser, Cookie: cookie });
      expectSameDocument(campaign, clean, `${path}?${campaigns[0]} ${cookie}`);
    }
    const notModified = await raw(baseURL, path, {
      ...browser,
      Cookie: foreignCookies[1] ?? "",
      "If-None-Match": String(clean.headers.etag),
    });
    expect(notModified.status).toBe(304);
  }
});

test("a parameter the site does not know keeps the page private, beside tracking parameters too", async ({
  baseURL,
}) => {
  for (const path of ["/?page=2", "/?utm_source=newsletter&page=2", "/privacy-policy?gclid=a&x=1"]) {
    const answer = await raw(baseURL, path, browser);
    expect(answer.status, path).toBe(200);
    expect(answer.headers["cache-control"], path).toBe("private, no-cache");
    expect(answer.headers.etag, path).toBeUndefined();
    expect(answer.headers["content-security-policy"]).toMatch(/'nonce-/);
  }
});

test("canonical links and og:url name the clean URL of a campaign page", async ({ page }) => {
  for (const path of shared) {
    await page.goto(`${path}?utm_source=newsletter&utm_medium=email&gclid=abc`);
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", `${siteUrl}${path}`);
    await expect(page.locator('meta[property="og:url"]')).toHaveAttribute("content", `${siteUrl}${path}`);
  }
});

test("a campaign page hydrates under the shared document's hash CSP and keeps its query", async ({
  page,
}) => {
  const response = await page.goto("/?utm_source=newsletter&fbclid=IwAR2#contact");
  expect(response?.headers()["content-security-policy"]).toMatch(/'sha256-[^']+' 'strict-dynamic'/);
  await waitForHydration(page);
  // Nothing reloads or rewrites the visitor's URL: their analytics tag may still read it.
  await expect(page).toHaveURL(/\/\?utm_source=newsletter&fbclid=IwAR2#contact$/);
});

test("a server whose first visitor came from a campaign stores the same bytes as one whose first came to the clean URL", async ({
  baseURL,
}) => {
  const other = await startServer({ env: { SITE_URL: siteUrl }, quiet: true });
  try {
    const first = await raw(other.url, `/privacy-policy?${campaigns[0]}`, browser);
    const ours = await raw(baseURL, "/privacy-policy", browser);
    expect(first.headers.etag).toBe(ours.headers.etag);
    expect(Buffer.compare(first.body, ours.body)).toBe(0);
  } finally {
    await other.stop();
  }
});

test("the request log shows the tracking parameters' names, never their values", async () => {
  const server = await startServer({ env: { SITE_URL: siteUrl } });
  try {
    // The first request is the app's (it renders and stores the page), the next ones the fast path's.
    await raw(server.url, "/?utm_source=newsletter&utm_medium=email&utm_campaign=launch", browser);
    await raw(server.url, "/?utm_source=newsletter&utm_medium=email&utm_campaign=launch", browser);
    await raw(server.url, "/?gclid=SECRETCLICK&fbclid=OTHERCLICK", { ...browser, Cookie: "_ga=GA1.2" });
    await expect.poll(() => server.output()).toMatch(/^GET \/\?gclid=&fbclid= 200 \d+ - [\d.]+ ms$/m);
    const lines = server.output().split("\n");
    expect(
      lines.filter((line) => /^GET \/\?utm_source=&utm_medium=&utm_campaign= 200 \d+ - /.test(line)),
    ).toHaveLength(2);
    expect(server.output()).not.toMatch(/newsletter|launch|SECRETCLICK|OTHERCLICK/);
  } finally {
    await server.stop();
  }
});

test.describe("behind a cache", () => {
  test("keyed by the full URL, each campaign URL costs one origin request, answered with the shared document", async ({
    baseURL,
  }) => {
    const proxy = await startCachingProxy(baseURL ?? "");
    try {
      const clean = await raw(proxy.url, "/", browser);
      const targets = campaigns.map((query) => `/?${query}`);
      for (const target of [...targets, ...targets]) {
        expectSameDocument(
          await raw(proxy.url, target, { ...browser, Cookie: foreignCookies[0] ?? "" }),
          clean,
          target,
        );
      }
      expect(proxy.originRequests).toEqual(["GET /", ...targets.map((target) => `GET ${target}`)]);
    } finally {
      await proxy.stop();
    }
  });

  test("keyed as docs/deploying.md's nginx map keys it, every campaign URL shares the page's one copy", async ({
    baseURL,
  }) => {
    const proxy = await startCachingProxy(baseURL ?? "", guideCacheKey());
    try {
      const clean = await raw(proxy.url, "/", browser);
      for (const query of campaigns) {
        const answer = await raw(proxy.url, `/?${query}`, browser);
        expectSameDocument(answer, clean, query);
        expect(answer.headers["x-cache"], query).toBe("HIT");
      }
      expect(proxy.originRequests).toEqual(["GET /"]);
      // What the site does not know still reaches it: its own page, never stored.
      const other = await raw(proxy.url, "/?page=2", browser);
      expect(other.headers["cache-control"]).toBe("private, no-cache");
      expect(proxy.originRequests).toEqual(["GET /", "GET /?page=2"]);
    } finally {
      await proxy.stop();
    }
  });
});
