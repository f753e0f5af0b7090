/**
 * The byte budgets the pages are held to (docs/performance.md#budgets) and how they are
 * measured: gzip -9 of what the server sends. tests/browser/budgets.spec.ts asserts them and
 * `npm run check:content` (scripts/check-content.ts) reports each page over one.
 */
import { gzipSync } from "node:zlib";
import type { Page, Response } from "@playwright/test";
import { scrollThrough } from "./scroll";

export const KB = 1024;

/**
 * typed.js 2.1.0 and its options, the chunk that types the hero's word: fetched with import()
 * as soon as the page has hydrated, so it counts as JS before interaction, and that budget rose
 * by exactly this, its weight measured on 2026-11-27 (docs/decisions/027-typed-js.md).
 */
const typedJs = 3_104;

/** Gzipped bytes (gzip -9). */
export const BUDGETS = {
  initialJs: 100 * KB + typedJs,
  typedJs,
  allJs: 140 * KB,
  /**
   * The field-metrics reporter, fetched once the page is idle: 4 KB until it took the landing's
   * campaign and the WhatsApp tap's beacon, which left the bundle before interaction for it
   * (docs/decisions/050-campaign-counts.md: −480 B there, +500 B here).
   */
  vitalsJs: 4.5 * KB,
  css: 12 * KB,
  /** Every page's document but an article's and a case study's. */
  html: 20 * KB,
  /** An article's or a case study's document: the length of its body is the editor's. */
  contentPageHtml: 30 * KB,
};

/** The phone the budgets are measured on. */
export const BUDGET_DEVICE = { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true };

/**
 * The field-metrics reporter (app/vitals) is fetched once the page has loaded and the browser
 * is idle, so nothing the visitor does waits for it: it counts towards the JS the page ever
 * loads and has a budget of its own, not towards the JS before interaction.
 */
export const VITALS_CHUNK = /\/report-vitals\.client-[^/]+\.js$/;
export const TYPED_CHUNK = /\/hero-typing\.client-[^/]+\.js$/;

/** Gzipped bytes, at level 9 so the figure is the same on every run and machine. */
export function gzipBytes(body: Buffer | string): number {
  return gzipSync(body, { level: 9 }).length;
}

/** The HTML budget of the page at `path`: an article's or a case study's is larger. */
export function htmlBudgetOf(path: string): number {
  return /^\/(case-studies|insights)\/[^/]+$/.test(path) ? BUDGETS.contentPageHtml : BUDGETS.html;
}

type Kind = "js" | "css" | "html";

function kindOf(response: Response): Kind | null {
  const type = response.headers()["content-type"] ?? "";
  const path = new URL(response.url()).pathname;
  if (response.request().resourceType() === "document" || type.startsWith("text/html")) return "html";
  if (/\.m?js$/.test(path) || type.includes("javascript")) return "js";
  if (path.endsWith(".css") || type.startsWith("text/css")) return "css";
  return null;
}

export interface Transfers {
  js: number;
  typedJs: number;
  jsWithoutVitals: number;
  css: number;
  html: number;
  /** Each file's kind and gzipped bytes, by URL. */
  files: Map<string, { kind: Kind; gzip: number }>;
}

/**
 * Records the gzipped size of every script, stylesheet and document the page receives; the
 * function returned totals what has arrived so far.
 */
export function recordTransfers(page: Page): () => Promise<Transfers> {
  const sizes = new Map<string, { kind: Kind; gzip: number }>();
  const pending: Promise<void>[] = [];
  page.on("response", (response) => {
    const kind = kindOf(response);
    if (kind === null || response.status() !== 200) return;
    pending.push(
      response.body().then((body) => {
        sizes.set(response.url(), { kind, gzip: gzipBytes(body) });
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

export interface HomeBytes {
  /** What the page received before any interaction: hydrated, the hero's typing loaded, the network idle. */
  initial: Transfers;
  /** Everything it may still load later: scrolled through, the carousel and the reporter loaded. */
  eventually: Transfers;
  /** The field-metrics reporter's bytes. */
  vitals: number;
}

/**
 * Opens the home page (at `url`) in `page` and measures what it loads before any interaction
 * and eventually, scrolling through it all as a reader would.
 */
export async function measureHomePage(page: Page, url = "/"): Promise<HomeBytes> {
  const measure = recordTransfers(page);
  const vitalsLoaded = page.waitForResponse((response) =>
    VITALS_CHUNK.test(new URL(response.url()).pathname),
  );
  const typedLoaded = page.waitForResponse((response) => TYPED_CHUNK.test(new URL(response.url()).pathname));
  await page.goto(url);
  await page.waitForFunction(() => "__remixRouter" in window);
  await typedLoaded;
  await page.waitForLoadState("networkidle");
  const initial = await measure();

  // Every frame rendered on the way down, until the lazy parts have run (the carousel, the
  // field-metrics reporter) and the network is idle.
  await scrollThrough(page);
  await page.locator(".partners-swiper.swiper-initialized").waitFor({ state: "attached" });
  await vitalsLoaded;
  await page.waitForLoadState("networkidle");
  const eventually = await measure();
  return { initial, eventually, vitals: eventually.js - eventually.jsWithoutVitals };
}

export interface BudgetLine {
  name: string;
  bytes: number;
  budget: number;
}

/** The home page's figures, each beside its budget. */
export function homeBudgetLines({ initial, eventually, vitals }: HomeBytes): BudgetLine[] {
  return [
    { name: "JS before interaction", bytes: initial.jsWithoutVitals, budget: BUDGETS.initialJs },
    { name: "typed.js", bytes: initial.typedJs, budget: BUDGETS.typedJs },
    { name: "field-metrics reporter", bytes: vitals, budget: BUDGETS.vitalsJs },
    { name: "JS ever loaded", bytes: eventually.js, budget: BUDGETS.allJs },
    { name: "CSS", bytes: eventually.css, budget: BUDGETS.css },
    { name: "HTML", bytes: initial.html, budget: BUDGETS.html },
  ];
}

export const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`;

/** A total against its budget, to the byte too: the headroom is often less than 0.1 KB. */
export const against = (bytes: number, budget: number) =>
  `${kb(bytes)} / ${kb(budget)} (${bytes} of ${budget} bytes)`;
