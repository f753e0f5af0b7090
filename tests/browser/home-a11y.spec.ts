import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { waitForHydration } from "../support/enquiry-page";
import { expect, test } from "../support/fixtures";
import { expectSameAsWithoutJavaScript, serveWithoutScripts } from "../support/no-script-page";
import { scrollThrough } from "../support/scroll";

const viewports = [
  { width: 1280, height: 800 },
  { width: 375, height: 812 },
];

/** Resolves once every reveal transition under way has ended (or been cancelled). */
async function revealTransitionsEnded(page: Page) {
  await page.evaluate(() =>
    Promise.allSettled(
      document
        .getAnimations()
        .filter((animation) => {
          const target = (animation.effect as KeyframeEffect | null)?.target;
          return target instanceof Element && target.classList.contains("reveal");
        })
        .map((animation) => animation.finished),
    ),
  );
}

async function violations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.map(
    (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
  );
}

for (const viewport of viewports) {
  test.describe(`home page accessibility at ${viewport.width} px`, () => {
    test.use({ viewport });

    test("axe finds no violations with JavaScript", async ({ page }) => {
      // axe reads the whole page: on a busy machine that alone can take most of a minute.
      test.slow();
      await page.goto("/");
      // The reveal effect (it runs once the page hydrates) has hidden the sections below the
      // fold: scrolling from here reveals them all.
      await waitForHydration(page);
      await expect(page.locator(".reveal").first()).toBeAttached();
      // Reach every section so the lazy carousel initialises and revealed sections settle.
      await scrollThrough(page);
      await expect(page.locator(".partners-swiper")).toHaveClass(/swiper-initialized/);
      await expect(page.locator(".reveal:not(.reveal-shown)")).toHaveCount(0);
      await revealTransitionsEnded(page);
      expect(await violations(page)).toEqual([]);
    });

    test("axe finds no violations without JavaScript", async ({ page }) => {
      test.slow();
      // axe itself needs a script engine, so the page keeps one but gets the no-JS document
      // (tests/support/no-script-page.ts), checked against a browser without JavaScript.
      await serveWithoutScripts(page);
      await page.goto("/");
      await expect(page.locator("html")).not.toHaveClass(/\bjs\b/);
      await expectSameAsWithoutJavaScript(page);
      await scrollThrough(page);
      await expect(page.locator(".partners-swiper")).not.toHaveClass(/swiper-initialized/);
      await expect(page.locator("#services details")).toHaveCount(5);
      expect(await violations(page)).toEqual([]);
    });
  });
}
