import { readManifest, readMarkup, readRobots } from "../../scripts/content-check/document-parts";
import { expect, test } from "../support/fixtures";

// What `npm run check:content` reads of a served document, with the browser's own parsers
// (scripts/content-check/document-parts.ts), on documents made up here.

const url = "http://127.0.0.1:4000/insights/a";

test("an HTML page's links, images, stylesheets and anchors, with the words an editor finds them by", async ({
  page,
}) => {
  const html = `<!doctype html><html><head>
    <link rel="stylesheet" href="/build/app.css"><link rel="canonical" href="http://127.0.0.1:4000/insights/a">
    <meta property="og:image" content="http://127.0.0.1:4000/og/insights/a.png"></head>
    <body><main id="main"><h2 id="pricing">Pricing</h2><a name="old-anchor"></a>
    <p>Read <a href="/case-studies/b#results">the   case
      study</a> or <a href="#pricing" aria-label="Prices"><svg></svg></a>.</p>
    <picture><source type="image/avif" srcset="/media/x-480.avif 480w, /media/x-768.avif 768w">
      <img src="/media/x-768.jpg" srcset="/media/x-480.jpg 480w" alt="The team at work"></picture>
    <noscript><a href="/contact-without-js">Write to us</a></noscript></main></body></html>`;
  const parts = await readMarkup(page, html, url, "html");
  expect(parts.malformed).toBeNull();
  expect(parts.anchors).toEqual(["main", "pricing", "old-anchor"]);
  expect(parts.stylesheets).toEqual(["http://127.0.0.1:4000/build/app.css"]);
  expect(parts.references).toEqual([
    { url: "http://127.0.0.1:4000/case-studies/b#results", label: 'the link "the case study"', image: false },
    { url: "http://127.0.0.1:4000/insights/a#pricing", label: 'the link "Prices"', image: false },
    { url: "http://127.0.0.1:4000/contact-without-js", label: 'the link "Write to us"', image: false },
    { url: "http://127.0.0.1:4000/build/app.css", label: '<link rel="stylesheet">', image: false },
    { url: "http://127.0.0.1:4000/insights/a", label: '<link rel="canonical">', image: false },
    { url: "http://127.0.0.1:4000/media/x-768.jpg", label: 'the image "The team at work"', image: true },
    { url: "http://127.0.0.1:4000/media/x-480.jpg", label: 'the image "The team at work"', image: true },
    {
      url: "http://127.0.0.1:4000/media/x-480.avif",
      label: 'the image "The team at work" (<source type="image/avif">)',
      image: true,
    },
    {
      url: "http://127.0.0.1:4000/media/x-768.avif",
      label: 'the image "The team at work" (<source type="image/avif">)',
      image: true,
    },
    { url: "http://127.0.0.1:4000/og/insights/a.png", label: "<meta og:image>", image: true },
  ]);
});

test("a sitemap's and a feed's addresses, and XML that is not well-formed", async ({ page }) => {
  const sitemap = `<?xml version="1.0" encoding="UTF-8"?>
    <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>http://127.0.0.1:4000/</loc></url></urlset>`;
  expect((await readMarkup(page, sitemap, url, "xml")).references).toEqual([
    { url: "http://127.0.0.1:4000/", label: "its <loc>", image: false },
  ]);
  const feed = `<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom">
    <icon>http://127.0.0.1:4000/favicon.svg</icon>
    <entry><link rel="alternate" href="http://127.0.0.1:4000/insights/a"/></entry></feed>`;
  expect((await readMarkup(page, feed, url, "xml")).references).toEqual([
    { url: "http://127.0.0.1:4000/insights/a", label: 'its <link rel="alternate">', image: false },
    { url: "http://127.0.0.1:4000/favicon.svg", label: "its <icon>", image: true },
  ]);
  const broken = await readMarkup(page, "<feed><entry><title>A & B</title></entry></feed>", url, "xml");
  expect(broken.malformed).toMatch(/\S/);
  expect(broken.references).toEqual([]);
});

test("robots.txt's sitemap and a manifest's icons, or why the manifest is not JSON", () => {
  expect(
    readRobots("User-agent: *\nAllow: /\nSitemap: http://127.0.0.1:4000/sitemap.xml\n", url).references,
  ).toEqual([{ url: "http://127.0.0.1:4000/sitemap.xml", label: "its Sitemap: line", image: false }]);
  const manifest = readManifest(JSON.stringify({ start_url: "/", icons: [{ src: "/icon-192.png" }] }), url);
  expect(manifest.references).toEqual([
    { url: "http://127.0.0.1:4000/", label: "its start_url", image: false },
    { url: "http://127.0.0.1:4000/icon-192.png", label: "its icon", image: true },
  ]);
  expect(readManifest("{ nope", url).malformed).toMatch(/^not JSON: /);
});
