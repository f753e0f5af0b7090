import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import type { Page, Response } from "@playwright/test";
import { FIXTURE_CONTENT_DIR } from "../support/fixture-content";
import { expect, test } from "../support/fixtures";
import { scrollThrough } from "../support/scroll";

/** Gzipped bytes, at level 9 so the figure is the same on every run and machine. */
const KB = 1024;

/**
 * typed.js 2.1.0 and its options, the chunk that types the hero's word: fetched with import()
 * as soon as the page has hydrated, so it counts as JS before interaction, and that budget rose
 * by exactly this, its weight measured on 2026-11-27 (docs/decisions/027-typed-js.md).
 */
const typedJs = 3_104;
const budgets = {
  initialJs: 100 * KB + typedJs,
  typedJs,
  allJs: 140 * KB,
  vitalsJs: 4 * KB,
  css: 12 * KB,
  html: 20 * KB,
};

/**
 * The field-metrics reporter (app/vitals) is fetched once the page has loaded and the browser
 * is idle, so nothing the visitor does waits for it: it counts towards the JS the page ever
 * loads and has a budget of its own, not towards the JS before interaction.
 */
const VITALS_CHUNK = /\/report-vitals\.client-[^/]+\.js$/;
const TYPED_CHUNK = /\/hero-typing\.client-[^/]+\.js$/;

type Kind = "js" | "css" | "html";

function kindOf(response: Response): Kind | null {
  const type = response.headers()["content-type"] ?? "";
  const path = new URL(response.url()).pathname;
  if (response.request().resourceType() === "document" || type.startsWith("text/html")) return "html";
  if (/\.m?js$/.test(path) || type.includes("javascript")) return "js";
  if (path.endsWith(".css") || type.startsWith("text/css")) return "css";
  return null;
}

/** Records the gzipped size of every script, stylesheet and document the page receives. */
function recordTransfers(page: Page) {
  const sizes = new Map<string, { kind: Kind; gzip: number }>();
  const pending: Promise<void>[] = [];
  page.on("response", (response) => {
    const kind = kindOf(response);
    if (kind === null || response.status() !== 200) return;
    pending.push(
      response.body().then((body) => {
        sizes.set(response.url(), { kind, gzip: gzipSync(body, { level: 9 }).length });
      }),
    );
  });
  return async () => {
    await Promise.all(pending);
    /** The gzipped bytes of one kind, from the files whose path `counts`. */
    const total = (kind: Kind, counts: (path: string) => boolean = () => true) =>
      [...sizes]
        .filter(([url, entry]) => entry.kind === kind && counts(new URL(url).pathname))
        .reduce((sum, [, entry]) => sum + entry.gzip, 0);
    return {
      js: total("js"),
      typedJs: total("js", (path) => TYPED_CHUNK.test(path)),
      jsWithoutVitals: total("js", (path) => !VITALS_CHUNK.test(path)),
      css: total("css"),
      html: total("html"),
      files: new Map(sizes),
    };
  };
}

const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`;
/** A total against its budget, to the byte too: the headroom is often less than 0.1 KB. */
const against = (bytes: number, budget: number) =>
  `${kb(bytes)} / ${kb(budget)} (${bytes} of ${budget} bytes)`;

test.use({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });

test("the home page stays within its byte budgets (gzip -9)", async ({ page }) => {
  const measure = recordTransfers(page);
  const vitalsLoaded = page.waitForResponse((response) =>
    VITALS_CHUNK.test(new URL(response.url()).pathname),
  );
  const typedLoaded = page.waitForResponse((response) => TYPED_CHUNK.test(new URL(response.url()).pathname));
  await page.goto("/");
  await page.waitForFunction(() => "__remixRouter" in window);
  await typedLoaded;
  await page.waitForLoadState("networkidle");
  const initial = await measure();

  // Everything the page may still load later: scroll through it all, every frame rendered, until
  // the lazy parts have run (the carousel, the field-metrics reporter) and the network is idle.
  await scrollThrough(page);
  await expect(page.locator(".partners-swiper")).toHaveClass(/swiper-initialized/);
  await vitalsLoaded;
  await page.waitForLoadState("networkidle");
  const eventually = await measure();
  const vitals = eventually.js - eventually.jsWithoutVitals;

  console.log(
    [
      "home page budgets (gzip -9, 375×812):",
      `  JS before interaction ${against(initial.jsWithoutVitals, budgets.initialJs)}`,
      `  of which typed.js     ${against(initial.typedJs, budgets.typedJs)}`,
      `  field-metrics reporter, loaded when idle: ${against(vitals, budgets.vitalsJs)}`,
      `  JS ever loaded        ${against(eventually.js, budgets.allJs)}`,
      `  CSS                   ${against(eventually.css, budgets.css)}`,
      `  HTML                  ${against(initial.html, budgets.html)}`,
      "  files:",
      ...[...eventually.files].map(
        ([url, { kind, gzip }]) => `    ${kind.padEnd(4)} ${kb(gzip).padStart(9)}  ${new URL(url).pathname}`,
      ),
    ].join("\n"),
  );

  expect(initial.html, "a document was measured").toBeGreaterThan(0);
  expect(initial.js, "scripts were measured").toBeGreaterThan(0);
  expect(initial.jsWithoutVitals, "JS before interaction").toBeLessThanOrEqual(budgets.initialJs);
  expect(initial.typedJs, "typed.js was loaded before interaction").toBeGreaterThan(0);
  expect(initial.typedJs, "typed.js").toBeLessThanOrEqual(budgets.typedJs);
  expect(vitals, "the field-metrics reporter was loaded").toBeGreaterThan(0);
  expect(vitals, "the field-metrics reporter").toBeLessThanOrEqual(budgets.vitalsJs);
  expect(eventually.js, "JS the home page can ever load").toBeLessThanOrEqual(budgets.allJs);
  expect(eventually.css, "CSS").toBeLessThanOrEqual(budgets.css);
  expect(initial.html, "HTML").toBeLessThanOrEqual(budgets.html);
});

/** The largest file of a folder of the tests' content, by its bytes: the page with the most HTML. */
function largestOf(folder: string): string {
  const files = readdirSync(folder).filter((name) => name.endsWith(".md"));
  const [largest] = files.sort((a, b) => statSync(join(folder, b)).size - statSync(join(folder, a)).size);
  return (largest ?? "").replace(/\.md$/, "");
}

test("the largest article and case study each send at most 30 KB of HTML, gzipped", async ({ request }) => {
  for (const path of [
    `/insights/${largestOf(`${FIXTURE_CONTENT_DIR}/insights`)}`,
    `/case-studies/${largestOf(`${FIXTURE_CONTENT_DIR}/case-studies`)}`,
  ]) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(200);
    const gzip = gzipSync(await response.body(), { level: 9 }).length;
    console.log(`${path} HTML ${against(gzip, 30 * KB)}`);
    expect(gzip, `${path} HTML`).toBeLessThanOrEqual(30 * KB);
  }
});
