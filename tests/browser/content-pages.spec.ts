import AxeBuilder from "@axe-core/playwright";
import { pageWords } from "~/content/page-words";
import { site } from "~/content/site";
import { expect, test } from "../support/fixtures";
import { settledLayoutShift } from "../support/layout-shift";

const caseStudies = ["pawpal", "brightlend", "vidyasetu"];
/** The published articles, newest first (content/insights/). */
const articles = [
  "pages-that-work-without-javascript",
  "mvp-kaise-banayein",
  "estimates-as-ranges",
  "building-for-budget-phones",
];

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("/case-studies lists every case study, each leading to its page", async ({ page }) => {
    await page.goto("/case-studies");
    // The list's words are the content's (content/pages.yml; the tests' own here).
    await expect(page).toHaveTitle(`${pageWords.caseStudies.heading} — ${site.name}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(pageWords.caseStudies.heading);
    await expect(page.getByRole("complementary")).toContainText(pageWords.caseStudies.call.heading);
    await expect(page.getByRole("link", { name: pageWords.enquire })).toHaveAttribute("href", "/#contact");
    const links = page.locator("main li h2 a");
    await expect(links).toHaveCount(caseStudies.length);
    // Each card's cover has its size; the first, the largest paint on a phone, is fetched first.
    const covers = page.locator("main li img");
    await expect(covers).toHaveCount(caseStudies.length);
    await expect(covers.first()).toHaveAttribute("fetchpriority", "high");
    for (const cover of await covers.all()) await expect(cover).toHaveAttribute("height", /^\d+$/);
    for (const cover of (await covers.all()).slice(1)) await expect(cover).toHaveAttribute("loading", "lazy");
    await page.getByRole("link", { name: /^PawPal:/ }).click();
    await expect(page).toHaveURL(/\/case-studies\/pawpal$/);
  });

  test("a case study tells the client, sector, problem, work, stack, results and quote, and ends with a call to enquire", async ({
    page,
  }) => {
    await page.goto("/case-studies/pawpal");
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { level: 1 })).toContainText("PawPal");
    await expect(main).toContainText("PawPal · Pet care");
    const { results, stack } = pageWords.caseStudy;
    for (const heading of [results, "The problem", "What we did", stack]) {
      await expect(main.getByRole("heading", { level: 2, name: heading })).toBeVisible();
    }
    await expect(main.locator("dl dd").first()).toHaveText("40k");
    await expect(main.getByRole("listitem").getByText("React Native", { exact: true })).toBeVisible();
    await expect(main.locator("blockquote")).toContainText("They asked better questions");
    const cover = main.getByRole("img", { name: /PawPal pet-care app/ });
    await expect(cover).toHaveAttribute("width", "1200");
    await expect(cover).toHaveAttribute("height", "520");
    await expect(cover).toHaveJSProperty("complete", true);
    // An SVG is served as it is, one file at every size: no <picture>, no srcset, and as the
    // page's largest image it is fetched first. (A photo's widths: admin-local.spec.ts.)
    await expect(cover).toHaveAttribute("src", /\/build\/_assets\/case-study-pawpal-[\w-]+\.svg$/);
    await expect(cover).toHaveAttribute("fetchpriority", "high");
    await expect(cover).not.toHaveAttribute("srcset");
    await expect(main.locator("picture")).toHaveCount(0);
    await main.getByRole("link", { name: pageWords.enquire }).click();
    await expect(page).toHaveURL(/\/#contact$/);
    await expect(page.locator("#contact form")).toBeVisible();
  });

  test("/insights lists the articles newest first with the feed linked", async ({ page }) => {
    await page.goto("/insights");
    await expect(page.locator("main ol > li h2 a")).toHaveText([
      /^Pages that work/,
      /^पहला संस्करण/,
      /estimate software in ranges/,
      /phones your customers/,
    ]);
    await expect(page.locator("main ol > li h2 a").first()).toHaveAttribute(
      "href",
      `/insights/${articles[0]}`,
    );
    const feed = page.locator('link[rel="alternate"][type="application/atom+xml"]');
    await expect(feed).toHaveAttribute("href", /\/insights\/feed\.xml$/);
  });

  test("an article is an <article> with its title, author, date, reading time, body and neighbours", async ({
    page,
  }) => {
    await page.goto("/insights/estimates-as-ranges");
    const article = page.locator("article");
    await expect(article.getByRole("heading", { level: 1 })).toHaveText(
      "Why we estimate software in ranges, and what the range tells you",
    );
    await expect(article).toContainText("By Meera Iyer");
    await expect(article.locator("time").first()).toHaveAttribute("datetime", "2026-08-27");
    await expect(article).toContainText(/\d+ min read/);
    await expect(article.getByRole("heading", { level: 2, name: "How we build a range" })).toBeVisible();
    const more = page.getByRole("navigation", { name: "More insights" });
    await expect(more.getByRole("link", { name: /Newer article/ })).toHaveAttribute(
      "href",
      "/insights/mvp-kaise-banayein",
    );
    await expect(more.getByRole("link", { name: /Older article/ })).toHaveAttribute(
      "href",
      "/insights/building-for-budget-phones",
    );
    await expect(page.getByRole("link", { name: pageWords.enquire })).toHaveAttribute("href", "/#contact");
  });

  test("code is highlighted with classes, and no script or inline style is sent", async ({ page }) => {
    const response = await page.goto("/insights/pages-that-work-without-javascript");
    await expect(page.locator(".content-body pre code .hljs-keyword").first()).toHaveText("export");
    const html = (await response?.text()) ?? "";
    expect(html).not.toMatch(/style="/);
  });

  test("a Hindi article marks its language and carries the Devanagari hook", async ({ page }) => {
    await page.goto("/insights/mvp-kaise-banayein");
    const article = page.locator("article");
    await expect(article).toHaveAttribute("lang", "hi");
    await expect(article).toHaveClass(/content-devanagari/);
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
  });

  test("the home page links the case studies, the insights and PawPal's case study", async ({ page }) => {
    await page.goto("/");
    await expect(page.locator("#insights").getByRole("link", { name: "Read our insights" })).toHaveAttribute(
      "href",
      "/insights",
    );
    const footer = page.getByRole("contentinfo");
    await expect(footer.getByRole("link", { name: "Case studies" })).toHaveAttribute("href", "/case-studies");
    await expect(footer.getByRole("link", { name: "Insights" })).toHaveAttribute("href", "/insights");
    await page.getByRole("link", { name: "Read the PawPal case study" }).click();
    await expect(page).toHaveURL(/\/case-studies\/pawpal$/);
  });
});

test.describe("addresses", () => {
  test.use({ allowedProblems: [/^HTTP (404|410) /] });

  test("a former slug answers 301 to the new one, keeping campaign parameters", async ({ request }) => {
    for (const [from, to] of [
      ["/case-studies/pawpal-pet-care-app?utm_source=ad", "/case-studies/pawpal?utm_source=ad"],
      ["/insights/how-we-estimate", "/insights/estimates-as-ranges"],
      ["/insights/page/1", "/insights"],
    ] as const) {
      const response = await request.get(from, { maxRedirects: 0 });
      expect(response.status(), from).toBe(301);
      expect(response.headers().location, from).toBe(to);
    }
  });

  test("an unknown slug and a page past the last answer 404 with the not-found page", async ({ page }) => {
    for (const path of [
      "/case-studies/nowhere",
      "/insights/nowhere",
      "/insights/page/2",
      "/insights/page/x",
    ]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(404);
      await expect(page.getByRole("img", { name: /Page not found/ })).toBeVisible();
    }
  });

  test("an unpublished article answers 410 and is in neither the sitemap nor the feed", async ({
    page,
    request,
  }) => {
    const response = await page.goto("/insights/hiring-a-remote-team-2025");
    expect(response?.status()).toBe(410);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      pageWords.errors.statuses.find(({ status }) => status === 410)?.title ?? "a heading for 410",
    );
    expect(await (await request.get("/sitemap.xml")).text()).not.toContain("hiring-a-remote-team");
    expect(await (await request.get("/insights/feed.xml")).text()).not.toContain("hiring-a-remote-team");
  });

  test("the sitemap lists every case study and article with its lastmod", async ({ request }) => {
    const xml = await (await request.get("/sitemap.xml")).text();
    expect(xml).toMatch(/<loc>[^<]*\/case-studies\/pawpal<\/loc>\s*<lastmod>2026-09-02<\/lastmod>/);
    expect(xml).toMatch(
      /<loc>[^<]*\/insights\/building-for-budget-phones<\/loc>\s*<lastmod>2026-05-06<\/lastmod>/,
    );
    for (const slug of caseStudies) expect(xml).toContain(`/case-studies/${slug}</loc>`);
    for (const slug of articles) expect(xml).toContain(`/insights/${slug}</loc>`);
  });

  test("the feed is Atom with every published article, newest first", async ({ request }) => {
    const response = await request.get("/insights/feed.xml");
    expect(response.headers()["content-type"]).toContain("application/atom+xml");
    const xml = await response.text();
    const ids = [...xml.matchAll(/<id>[^<]*\/insights\/([a-z0-9-]+)<\/id>/g)].map((match) => match[1]);
    expect(ids).toEqual(articles);
  });
});

test.describe("first-class pages", () => {
  test("each is a shared document, the same bytes with campaign parameters, with its own canonical link and JSON-LD", async ({
    request,
  }) => {
    for (const [path, types] of [
      ["/case-studies", ["BreadcrumbList"]],
      ["/case-studies/brightlend", ["CreativeWork", "BreadcrumbList"]],
      ["/insights", ["BreadcrumbList"]],
      ["/insights/building-for-budget-phones", ["BlogPosting", "BreadcrumbList"]],
    ] as const) {
      const plain = await request.get(path);
      const campaign = await request.get(`${path}?utm_source=newsletter&gclid=abc`);
      expect(plain.headers()["cache-control"], path).toContain("public");
      expect(campaign.headers().etag, path).toBe(plain.headers().etag);
      const html = await plain.text();
      expect(html, path).toMatch(new RegExp(`<link rel="canonical" href="[^"]*${path}"`));
      expect(html, path).toContain('property="og:image"');
      const jsonLd = [...html.matchAll(/<script type="application\/ld\+json"[^>]*>(.*?)<\/script>/g)].map(
        (match) => (JSON.parse(match[1] ?? "{}") as { "@type": string })["@type"],
      );
      for (const type of types) expect(jsonLd, path).toContain(type);
    }
  });

  for (const width of [1280, 375]) {
    for (const path of [
      "/case-studies",
      "/case-studies/pawpal",
      "/insights",
      "/insights/estimates-as-ranges",
      "/insights/mvp-kaise-banayein",
    ]) {
      test(`axe finds nothing on ${path} at ${width} px`, async ({ page }) => {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(path);
        const { violations } = await new AxeBuilder({ page }).analyze();
        expect(
          violations.map(
            (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target).join(", ")}`,
          ),
        ).toEqual([]);
      });
    }
  }

  test("a Hindi article loads the self-hosted Devanagari font under the page's policy; English pages and the home page do not", async ({
    page,
  }) => {
    const fonts: string[] = [];
    page.on("response", (response) => {
      if (/devanagari/i.test(response.url()))
        fonts.push(`${response.status()} ${new URL(response.url()).pathname}`);
    });
    // A CSP violation fails the test (tests/support/fixtures.ts).
    for (const path of ["/", "/insights/estimates-as-ranges", "/case-studies/pawpal", "/insights"]) {
      await page.goto(path);
      await page.evaluate(() => document.fonts.ready);
      expect(fonts, path).toEqual([]);
    }
    await page.goto("/insights/mvp-kaise-banayein");
    await expect
      .poll(() => page.evaluate(() => document.fonts.check('700 16px "Noto Sans Devanagari"', "नमस्ते")))
      .toBe(true);
    expect(fonts).toContainEqual(expect.stringMatching(/^200 \/build\/_assets\/devanagari-[^/]+\.css$/));
    expect(fonts).toContainEqual(
      expect.stringMatching(/^200 \/build\/_assets\/noto-sans-devanagari-[^/]+\.woff2$/),
    );
    expect(
      await page.evaluate(async () => {
        await document.fonts.ready;
        return [...document.fonts].some(
          (font) => font.family.includes("Noto Sans Devanagari") && font.status === "loaded",
        );
      }),
    ).toBe(true);
  });

  test("nothing shifts while an article and a case study load (CLS at most 0.01)", async ({ page }) => {
    for (const path of [
      "/case-studies/pawpal",
      "/insights/estimates-as-ranges",
      "/insights/mvp-kaise-banayein",
    ]) {
      await page.goto(path);
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      const shift = await settledLayoutShift(page);
      expect(shift, path).toBeLessThanOrEqual(0.01);
    }
  });
});
