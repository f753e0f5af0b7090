import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "../support/fixtures";

/** SITE_URL of the test server (playwright.config.ts). */
const siteUrl = "https://www.nirmaan.digital";

const pages = [
  { path: "/", title: /Nirmaan Digital/, image: "/og/home/index.png" },
  { path: "/terms-conditions", title: /Terms/, image: "/og/policies/terms-conditions.png" },
  { path: "/privacy-policy", title: /Privacy Policy/, image: "/og/policies/privacy-policy.png" },
  { path: "/cookie-policy", title: /Cookie Policy/, image: "/og/policies/cookie-policy.png" },
];

function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(1, 4).toString("latin1")).toBe("PNG");
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

async function fetchPng(request: APIRequestContext, url: string) {
  const response = await request.get(url);
  expect(response.status(), url).toBe(200);
  expect(response.headers()["content-type"]).toMatch(/^image\/png/);
  return pngSize(await response.body());
}

const metaContent = (page: Page, selector: string) => page.locator(selector).getAttribute("content");

for (const { path, title, image } of pages) {
  test(`${path} has its own title, description, canonical link and social cards`, async ({ page }) => {
    await page.goto(path);
    await expect(page).toHaveTitle(title);
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    const description = await metaContent(page, 'meta[name="description"]');
    expect(description?.length).toBeGreaterThan(50);
    expect(description?.length).toBeLessThanOrEqual(300);
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", `${siteUrl}${path}`);
    expect(await metaContent(page, 'meta[property="og:url"]')).toBe(`${siteUrl}${path}`);
    expect(await metaContent(page, 'meta[property="og:title"]')).toBe(await page.title());
    expect(await metaContent(page, 'meta[property="og:description"]')).toBe(description);
    expect(await metaContent(page, 'meta[property="og:image"]')).toBe(`${siteUrl}${image}`);
    expect(await metaContent(page, 'meta[name="twitter:card"]')).toBe("summary_large_image");
    expect(await metaContent(page, 'meta[name="twitter:title"]')).toBe(await page.title());
    await expect(page.locator('meta[name="robots"]')).toHaveCount(0);
    await expect(page.locator("title")).toHaveCount(1);
  });
}

test("titles and descriptions differ from page to page", async ({ request }) => {
  const seen = { titles: new Set<string>(), descriptions: new Set<string>() };
  for (const { path } of pages) {
    const html = await (await request.get(path)).text();
    seen.titles.add(/<title>([^<]*)<\/title>/.exec(html)?.[1] ?? "");
    seen.descriptions.add(/<meta name="description" content="([^"]*)"/.exec(html)?.[1] ?? "");
  }
  expect(seen.titles.size).toBe(pages.length);
  expect(seen.descriptions.size).toBe(pages.length);
});

test("the site's own image (the JSON-LD's) is a 1200×630 PNG", async ({ request }) => {
  expect(await fetchPng(request, "/og-image.png")).toEqual({ width: 1200, height: 630 });
});

test("every page in the sitemap names an Open Graph image of its own, a 1200×630 PNG the server answers", async ({
  request,
}) => {
  const sitemap = await (await request.get("/sitemap.xml")).text();
  const paths = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map(
    (match) => new URL(match[1] ?? "").pathname,
  );
  expect(paths).toEqual(expect.arrayContaining(["/", "/case-studies", "/insights", "/case-studies/pawpal"]));
  const images = new Set<string>();
  for (const path of paths) {
    const html = await (await request.get(path)).text();
    const image = /<meta property="og:image" content="([^"]+)"/.exec(html)?.[1] ?? "";
    expect(image, path).toMatch(
      new RegExp(`^${siteUrl.replaceAll(".", "\\.")}/og/[a-z-]+/[a-z0-9-]+\\.png$`),
    );
    images.add(image);
    expect(await fetchPng(request, image.slice(siteUrl.length)), path).toEqual({ width: 1200, height: 630 });
  }
  expect(images.size).toBe(paths.length);
});

test("JSON-LD describes the agency with its contact details and services", async ({ page }) => {
  await page.goto("/");
  const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
  expect(blocks).toHaveLength(1);
  const data = JSON.parse(blocks[0] ?? "{}");
  expect(data["@context"]).toBe("https://schema.org");
  expect(data["@type"]).toBe("ProfessionalService");
  expect(data.name).toBe("Nirmaan Digital");
  expect(data.url).toBe(`${siteUrl}/`);
  expect(data.logo).toBe(`${siteUrl}/icon-512.png`);
  expect(data.email).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]{2,}$/);
  expect(data.telephone).toMatch(/^\+91\d{8,12}$/);
  expect(data.address).toMatchObject({
    "@type": "PostalAddress",
    addressLocality: "Bengaluru",
    addressCountry: "IN",
  });
  expect(data.address.streetAddress).toBeTruthy();
  expect(data.address.postalCode).toMatch(/^\d{6}$/);
  const services = data.hasOfferCatalog.itemListElement.map(
    (offer: { itemOffered: { name: string } }) => offer.itemOffered.name,
  );
  expect(services).toEqual([
    "Website Development",
    "Mobile App Development",
    "SaaS Development",
    "eCommerce Development",
    "Web Application Development",
  ]);
});

test("the sitemap lists the home page and the three policies first, under SITE_URL", async ({ request }) => {
  const response = await request.get("/sitemap.xml");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toMatch(/^application\/xml/);
  const xml = await response.text();
  expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>/);
  expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
  const locations = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);
  // The case studies and insights follow (tests/browser/content-pages.spec.ts).
  expect(locations.slice(0, pages.length)).toEqual(pages.map(({ path }) => `${siteUrl}${path}`));
  expect(
    locations.slice(pages.length).every((location) => /\/(case-studies|insights)(\/|$)/.test(location ?? "")),
  ).toBe(true);
});

test("robots.txt allows everything and points at the sitemap", async ({ request }) => {
  const response = await request.get("/robots.txt");
  expect(response.headers()["content-type"]).toMatch(/^text\/plain/);
  const text = await response.text();
  expect(text).toMatch(/^User-agent: \*$/m);
  expect(text).toMatch(/^Allow: \/$/m);
  expect(text).not.toMatch(/^Disallow:/m);
  expect(text).toMatch(new RegExp(`^Sitemap: ${siteUrl}/sitemap.xml$`, "m"));
});

test("the favicon set and the web manifest are linked and served", async ({ page, request }) => {
  await page.goto("/");
  const href = (selector: string) => page.locator(selector).getAttribute("href");
  expect(await href('link[rel="icon"][type="image/svg+xml"]')).toBe("/favicon.svg");
  expect(await href('link[rel="icon"][sizes="32x32"]')).toBe("/favicon.ico");
  expect(await href('link[rel="apple-touch-icon"]')).toBe("/apple-touch-icon.png");
  const manifestUrl = await href('link[rel="manifest"]');
  expect(manifestUrl).toBe("/manifest.webmanifest");
  expect(await metaContent(page, 'meta[name="theme-color"]')).toBe("#7255F7");

  const ico = await request.get("/favicon.ico");
  expect(ico.status()).toBe(200);
  const icoBytes = await ico.body();
  expect(icoBytes.readUInt16LE(2)).toBe(1); // an icon resource
  expect(icoBytes[6]).toBe(32);
  expect(icoBytes[7]).toBe(32);
  expect((await request.get("/favicon.svg")).headers()["content-type"]).toMatch(/^image\/svg\+xml/);
  expect(await fetchPng(request, "/apple-touch-icon.png")).toEqual({ width: 180, height: 180 });

  const manifest = await (await request.get(manifestUrl ?? "")).json();
  expect(manifest).toMatchObject({
    name: "Nirmaan Digital",
    short_name: "Nirmaan",
    theme_color: "#7255F7",
    start_url: "/",
  });
  const icons = manifest.icons as { src: string; sizes: string; type: string }[];
  for (const size of [192, 512]) {
    const icon = icons.find((entry) => entry.sizes === `${size}x${size}` && entry.type === "image/png");
    expect(icon, `${size} px icon`).toBeDefined();
    expect(await fetchPng(request, icon?.src ?? "")).toEqual({ width: size, height: size });
  }
});

test.describe("not-found page", () => {
  test.use({ allowedProblems: [/^HTTP 404 .*\/no-such-page$/] });

  test("answers 404 and asks search engines not to index it", async ({ page }) => {
    const response = await page.goto("/no-such-page");
    expect(response?.status()).toBe(404);
    expect(await metaContent(page, 'meta[name="robots"]')).toBe("noindex");
    await expect(page.locator('link[rel="canonical"]')).toHaveCount(0);
  });
});
