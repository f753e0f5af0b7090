import { axeViolations, revealEverything } from "../support/axe-audit";
import { pageSendsBundle } from "../support/bundle-routes";
import { expect, test } from "../support/fixtures";
import { expectSameAsWithoutJavaScript, serveWithoutScripts } from "../support/no-script-page";
import { scrollYAtRest } from "../support/scroll";

const routes = [
  "/",
  "/terms-conditions",
  "/privacy-policy",
  "/cookie-policy",
  "/privacy/withdraw",
  "/privacy/withdraw?lang=hi",
  "/no-such-page",
];
const viewports = [
  { width: 1280, height: 800 },
  { width: 375, height: 812 },
];

for (const javaScriptEnabled of [true, false]) {
  test.describe(javaScriptEnabled ? "with JavaScript" : "without JavaScript", () => {
    test.use({ allowedProblems: [/^HTTP 404 .*\/no-such-page$/] });

    for (const path of routes) {
      for (const viewport of viewports) {
        test(`${path} at ${viewport.width} px has no axe violations`, async ({ page }) => {
          await page.setViewportSize(viewport);
          if (!javaScriptEnabled) await serveWithoutScripts(page);
          const response = await page.goto(path);
          expect(response?.status()).toBe(path === "/no-such-page" ? 404 : 200);
          if (javaScriptEnabled) {
            // A page without a bundle has no router to wait for (tests/browser/script-bundles.spec.ts).
            if (pageSendsBundle(path)) await page.waitForFunction(() => "__remixRouter" in window);
          } else {
            expect(await page.evaluate(() => document.scripts.length)).toBe(0);
            await expectSameAsWithoutJavaScript(page);
          }
          await page.waitForLoadState("networkidle");
          if (javaScriptEnabled) await revealEverything(page);
          expect(await axeViolations(page)).toEqual([]);
        });
      }
    }
  });
}

test.describe("keyboard", () => {
  test("the first Tab focuses 'Skip to content', which moves focus to the main content", async ({ page }) => {
    await page.goto("/");
    await page.waitForFunction(() => "__remixRouter" in window);
    await page.keyboard.press("Tab");
    const skip = page.locator(":focus");
    await expect(skip).toHaveText(/skip to content/i);
    await expect(skip).toHaveAttribute("href", "#main");
    await expect(skip).toBeVisible();
    await page.keyboard.press("Enter");
    await expect(page.locator("main#main")).toBeFocused();
  });
});

test.describe("reduced motion", () => {
  test.beforeEach(async ({ page }) => {
    await page.emulateMedia({ reducedMotion: "reduce" });
  });

  test("nothing scrolls smoothly or animates", async ({ page }) => {
    await page.goto("/");
    await page.waitForFunction(() => "__remixRouter" in window);
    await page.waitForLoadState("networkidle");
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).scrollBehavior)).toBe("auto");
    const runningAnimations = () =>
      page.evaluate(() =>
        document
          .getAnimations()
          .filter((animation) => {
            const timing = animation.effect?.getComputedTiming();
            return animation.playState === "running" && Number(timing?.duration ?? 0) > 10;
          })
          .map((animation) => {
            const target = (animation.effect as KeyframeEffect | null)?.target;
            const name = "animationName" in animation ? animation.animationName : "transition";
            return `${String(name)} on ${target?.tagName.toLowerCase()}.${target?.className}`;
          }),
      );
    expect(await runningAnimations()).toEqual([]);
    // Sections revealed on scroll must not animate in either.
    for (let y = 0; y < (await page.evaluate(() => document.body.scrollHeight)); y += 400) {
      await page.mouse.wheel(0, 400);
      expect(await runningAnimations()).toEqual([]);
    }
    // Once the page rests, two frames have been rendered there: what the last step set off runs now.
    await expect.poll(() => scrollYAtRest(page)).not.toBeNaN();
    expect(await runningAnimations()).toEqual([]);
  });
});
