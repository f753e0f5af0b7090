import type { Page } from "@playwright/test";
import { holdClientBundle } from "../support/client-bundle";
import { expect, test } from "../support/fixtures";
import { serveWithoutScripts } from "../support/no-script-page";
import { isHydratedAndRendered } from "../support/page-clock";
import { scrollYAtRest } from "../support/scroll";

// A visitor who opens the home page at a deep anchor (a link to the privacy notice, or to the
// contact section) stays on it however late the page hydrates: hydration changes nothing in
// the layout above the target. When a section above changed height at hydration while the
// browser's smooth scroll to the fragment was still under way, the page's end came up under
// the scroll and the whole contact section moved (CLS 0.289). The page's JavaScript is held
// back, as a slow network or device holds it, and released at chosen moments; the page and
// its code are the real ones.

const anchors = ["privacy-notice", "contact"] as const;
const viewports = [
  { width: 1280, height: 800 },
  { width: 1024, height: 768 },
  { width: 375, height: 812 },
];
/** The whole page's layout shifts without input, as Core Web Vitals sums them. */
const MAX_CLS = 0.01;

interface Shifts {
  total: number;
  /** Each shift with what moved, for the failure message. */
  entries: string[];
}

/** From the document's start on, sums the page's layout shifts that no input caused. */
async function recordLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const shifts = { total: 0, entries: [] as string[] };
    (window as unknown as { layoutShifts: typeof shifts }).layoutShifts = shifts;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & {
        value: number;
        hadRecentInput: boolean;
        sources: { node: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[];
      })[]) {
        if (entry.hadRecentInput) continue;
        shifts.total += entry.value;
        const moved = entry.sources.map(
          ({ node, previousRect, currentRect }) =>
            `${node instanceof Element ? `${node.tagName}#${node.id}` : node?.nodeName} ${Math.round(previousRect.y)}→${Math.round(currentRect.y)}`,
        );
        shifts.entries.push(
          `${entry.value.toFixed(3)} at ${Math.round(entry.startTime)} ms: ${moved.join(", ")}`,
        );
      }
    }).observe({ type: "layout-shift", buffered: true });
  });
}

const layoutShifts = (page: Page) =>
  page.evaluate(() => (window as unknown as { layoutShifts: Shifts }).layoutShifts);

function expectNoLayoutShift(shifts: Shifts, when: string): void {
  expect(
    shifts.total,
    `layout shifts of the whole page ${when}:\n${shifts.entries.join("\n")}`,
  ).toBeLessThanOrEqual(MAX_CLS);
}

/**
 * Holds the page's JavaScript until the page's own scroll to the fragment has covered
 * `share` of its way.
 */
async function holdClientBundleUntilScrolled(page: Page, share: number): Promise<void> {
  await page.exposeFunction("releaseClientBundle", await holdClientBundle(page));
  await page.addInitScript((share) => {
    let way = 0;
    const onScroll = () => {
      const target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
      if (!target) return;
      // The way is fixed by the first scroll: where the target then lay, below the scroll
      // padding, or the page's end if that comes first.
      const root = document.documentElement;
      const padding = Number.parseFloat(getComputedStyle(root).scrollPaddingTop) || 0;
      way ||= Math.min(
        window.scrollY + target.getBoundingClientRect().top - padding,
        root.scrollHeight - window.innerHeight,
      );
      if (window.scrollY < way * share) return;
      removeEventListener("scroll", onScroll);
      (window as unknown as { releaseClientBundle: () => void }).releaseClientBundle();
    };
    addEventListener("scroll", onScroll);
  }, share);
}

/** Where the target lies once the page is at rest: in the viewport and in the document. */
async function restingPlace(page: Page, anchor: string) {
  await expect.poll(() => scrollYAtRest(page)).not.toBeNaN();
  return page.locator(`#${anchor}`).evaluate((target) => {
    const top = target.getBoundingClientRect().top;
    return { inViewport: Math.round(top), inDocument: Math.round(top + window.scrollY) };
  });
}

/** Hydrated, every section rendered, fonts in, idle work done. */
async function settle(page: Page): Promise<void> {
  await expect.poll(() => isHydratedAndRendered(page)).toBe(true);
  await page.evaluate(async () => {
    await document.fonts.ready;
    await new Promise((next) => requestIdleCallback(next));
    await new Promise((next) => requestAnimationFrame(next));
  });
}

/** Lands at `anchor` with the JavaScript held back, then hydrates: where the target was and is. */
async function landThenHydrate(page: Page, anchor: string) {
  await recordLayoutShifts(page);
  const release = await holdClientBundle(page);
  await page.goto(`/#${anchor}`);
  await page.evaluate(() => document.fonts.ready);
  const served = await restingPlace(page, anchor);
  release();
  await settle(page);
  return { served, hydrated: await restingPlace(page, anchor), shifts: await layoutShifts(page) };
}

for (const viewport of viewports) {
  for (const anchor of anchors) {
    test(`opened at #${anchor} at ${viewport.width} px, hydration changes nothing above it`, async ({
      page,
    }) => {
      await page.setViewportSize(viewport);
      const { served, hydrated, shifts } = await landThenHydrate(page, anchor);
      // The target's place in the document is the layout above it; its place on screen, the visitor's.
      expect(hydrated.inDocument, "the target's top in the document after hydration").toBe(served.inDocument);
      expect(Math.abs(hydrated.inViewport - served.inViewport)).toBeLessThanOrEqual(1);
      expectNoLayoutShift(shifts, "through hydration");
    });
  }
}

// Hydration reaching the page at several points of its scroll to the fragment: the late ones
// are where a shortened page moved the contact section.
const scrollShares = [0.8, 0.9, 0.95, 0.98];

for (const viewport of viewports.filter(({ width }) => width !== 1024)) {
  for (const anchor of anchors) {
    test(`opened at #${anchor} at ${viewport.width} px, hydration during the scroll there moves nothing`, async ({
      page,
    }) => {
      test.slow();
      await page.setViewportSize(viewport);
      const { served } = await landThenHydrate(page, anchor);
      for (const share of scrollShares) {
        const loaded = await page.context().newPage();
        await loaded.setViewportSize(viewport);
        await recordLayoutShifts(loaded);
        await holdClientBundleUntilScrolled(loaded, share);
        await loaded.goto(`/#${anchor}`);
        await settle(loaded);
        const rest = await restingPlace(loaded, anchor);
        expectNoLayoutShift(await layoutShifts(loaded), `with hydration at ${share * 100}% of the way`);
        expect(Math.abs(rest.inViewport - served.inViewport)).toBeLessThanOrEqual(1);
        await loaded.close();
      }
    });
  }
}

test.describe("under reduced motion", () => {
  test.use({ reducedMotion: "reduce" });

  for (const anchor of anchors) {
    test(`opened at #${anchor}, hydration changes nothing above it`, async ({ page }) => {
      const { served, hydrated, shifts } = await landThenHydrate(page, anchor);
      expect(hydrated.inDocument).toBe(served.inDocument);
      expect(Math.abs(hydrated.inViewport - served.inViewport)).toBeLessThanOrEqual(1);
      expectNoLayoutShift(shifts, "through hydration");
    });
  }
});

// The document a browser without JavaScript gets (its scripts left out, no-JS styles in force),
// measured by a page that can still run the checks.
test.describe("without JavaScript", () => {
  for (const anchor of anchors) {
    test(`opened at #${anchor}, the page lands on it`, async ({ page }) => {
      await serveWithoutScripts(page);
      await page.goto(`/#${anchor}`);
      await expect(page.locator("html")).not.toHaveClass(/\bjs\b/);
      const { inViewport } = await restingPlace(page, anchor);
      // Below the sticky header, as the scroll padding says, or lower where the page ends.
      const landed = await page.evaluate((top) => {
        const root = document.documentElement;
        const padding = Number.parseFloat(getComputedStyle(root).scrollPaddingTop);
        const atEnd = window.scrollY >= root.scrollHeight - window.innerHeight - 1;
        return Math.abs(top - padding) <= 1 || (atEnd && top > padding);
      }, inViewport);
      expect(landed, `#${anchor} at ${inViewport} px from the top`).toBe(true);
    });
  }
});
