import type { Page } from "@playwright/test";
import { waitForHydration } from "../support/enquiry-page";
import { expect, test } from "../support/fixtures";

// With JavaScript, the first frame lays out the header and the first section only; the rest of
// the page renders one element per frame after the first paint (app/hydration/defer.server.ts).
// Laid out at once, the home page was the longest main-thread task of a cold load.

/** `checkVisibility` that counts content skipped by `content-visibility: auto` as not visible. */
function rendered(page: Page, selector: string): Promise<boolean> {
  return page.evaluate(
    (target) => document.querySelector(target)?.checkVisibility({ contentVisibilityAuto: true }) ?? false,
    selector,
  );
}

/** What the page looked like at its first contentful paint, recorded by the page itself. */
interface AtFirstPaint {
  topRendered: boolean;
  contactRendered: boolean;
  footerRendered: boolean;
}

/** The record `recordAtFirstPaint` keeps, once the page has painted (and pressed its key). */
async function recorded(page: Page, name: "atFirstPaint" | "afterKey"): Promise<AtFirstPaint> {
  await page.waitForFunction((key) => key in window, name);
  return page.evaluate(
    (key) => (window as unknown as Record<string, AtFirstPaint>)[key] as AtFirstPaint,
    name,
  );
}

function recordAtFirstPaint(page: Page, then: "nothing" | "keydown") {
  return page.addInitScript((action) => {
    const visible = (selector: string) =>
      document.querySelector(selector)?.checkVisibility({ contentVisibilityAuto: true }) ?? false;
    new PerformanceObserver((list, observer) => {
      if (list.getEntriesByName("first-contentful-paint").length === 0) return;
      observer.disconnect();
      const record = (): AtFirstPaint => ({
        topRendered: visible("main > :first-child h1"),
        contactRendered: visible("#contact h2"),
        footerRendered: visible("body > footer a"),
      });
      (window as unknown as { atFirstPaint: AtFirstPaint }).atFirstPaint = record();
      if (action === "keydown") {
        window.dispatchEvent(new KeyboardEvent("keydown", { key: "Tab" }));
        (window as unknown as { afterKey: AtFirstPaint }).afterKey = record();
      }
    }).observe({ type: "paint", buffered: true });
  }, then);
}

test.describe("on a phone", () => {
  test.use({ viewport: { width: 412, height: 823 } });

  test("the first frame renders the top of the page; the rest renders after it, and the page ends whole", async ({
    page,
  }) => {
    await recordAtFirstPaint(page, "nothing");
    await page.goto("/");
    expect(await recorded(page, "atFirstPaint")).toEqual({
      topRendered: true,
      contactRendered: false,
      footerRendered: false,
    });
    await expect(page.locator("html")).toHaveClass(/\bpainted\b/);
    for (const selector of ["#services h2", "#contact h2", "body > footer a"]) {
      expect(await rendered(page, selector), selector).toBe(true);
    }
    // Nothing is skipped any more, wherever it stands.
    const skipped = await page.evaluate(
      () =>
        [...document.querySelectorAll("main > *, body > footer")].filter(
          (element) => getComputedStyle(element).contentVisibility !== "visible",
        ).length,
    );
    expect(skipped).toBe(0);
  });

  test("the bundle starts once the rest has rendered, not beside it", async ({ page }) => {
    // Records, when the head script puts the module script back, whether the page had rendered whole.
    await page.addInitScript(() => {
      new MutationObserver((_records, observer) => {
        if (!document.querySelector('script[type="module"]')) return;
        observer.disconnect();
        (window as unknown as { atStart: boolean }).atStart =
          document.documentElement.classList.contains("painted");
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto("/");
    await page.waitForFunction(() => "atStart" in window);
    expect(await page.evaluate(() => (window as unknown as { atStart: boolean }).atStart)).toBe(true);
    await waitForHydration(page);
  });

  test("a key pressed before the rest has rendered renders all of it at once", async ({ page }) => {
    await recordAtFirstPaint(page, "keydown");
    await page.goto("/");
    expect((await recorded(page, "atFirstPaint")).footerRendered).toBe(false);
    expect(await recorded(page, "afterKey")).toEqual({
      topRendered: true,
      contactRendered: true,
      footerRendered: true,
    });
  });

  /** Where the top of `#id` stands in the viewport. */
  const topOf = (page: Page, id: string) =>
    page.evaluate((target) => document.getElementById(target)?.getBoundingClientRect().top, id);

  for (const anchor of ["services", "insights", "contact"]) {
    test(`opened at #${anchor}, the page renders whole from the first frame and shows the section at the top`, async ({
      page,
    }) => {
      await recordAtFirstPaint(page, "nothing");
      await page.goto(`/#${anchor}`);
      expect((await recorded(page, "atFirstPaint")).footerRendered).toBe(true);
      // The scroll padding keeps 5 rem (80 px) under the sticky header.
      await expect.poll(() => topOf(page, anchor)).toBeCloseTo(80, 0);
    });
  }

  test("reloaded halfway down, the page renders whole from the first frame and comes back where it was", async ({
    page,
  }) => {
    await page.goto("/");
    await expect(page.locator("html")).toHaveClass(/\bpainted\b/);
    await page.evaluate(() => document.getElementById("insights")?.scrollIntoView({ behavior: "instant" }));
    await expect.poll(() => topOf(page, "insights")).toBeCloseTo(80, 0);
    await recordAtFirstPaint(page, "nothing");
    await page.reload();
    expect((await recorded(page, "atFirstPaint")).footerRendered).toBe(true);
    await expect.poll(() => topOf(page, "insights")).toBeCloseTo(80, 0);
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false, viewport: { width: 412, height: 823 } });

  test("nothing is skipped: the whole page renders with the first frame", async ({ page }) => {
    await page.goto("/");
    for (const selector of ["main > :first-child h1", "#services h2", "#contact h2", "body > footer a"]) {
      expect(await rendered(page, selector), selector).toBe(true);
    }
  });
});
