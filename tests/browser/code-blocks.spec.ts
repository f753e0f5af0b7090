import AxeBuilder from "@axe-core/playwright";
import { codeBlockLabel } from "~/content/assistive-text";
import { expect, test } from "../support/fixtures";

/** The longest article with a code block (content/insights/): its line scrolls sideways on a phone. */
const article = "/insights/pages-that-work-without-javascript";

test.describe("a code block at 375 px", () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test("scrolls sideways, is named, and axe's scrollable-region-focusable passes", async ({ page }) => {
    await page.goto(article);
    const block = page.locator(".content-body pre").first();
    await expect(block).toHaveAttribute("tabindex", "0");
    await expect(block).toHaveAccessibleName(codeBlockLabel.en);
    expect(await block.evaluate((pre) => pre.scrollWidth > pre.clientWidth), "the block scrolls").toBe(true);
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.map((violation) => violation.id)).toEqual([]);
    expect(results.passes.map((rule) => rule.id)).toContain("scrollable-region-focusable");
  });

  test("a keyboard reaches it with Tab, sees its focus ring, and scrolls it with the arrow keys", async ({
    page,
  }) => {
    await page.goto(article);
    const block = page.locator(".content-body pre").first();
    const focused = () => block.evaluate((pre) => pre === document.activeElement);
    for (let presses = 0; presses < 80 && !(await focused()); presses += 1) await page.keyboard.press("Tab");
    expect(await focused(), "Tab reaches the code block").toBe(true);
    expect(await block.evaluate((pre) => getComputedStyle(pre).outlineStyle)).toBe("solid");
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => block.evaluate((pre) => pre.scrollLeft)).toBeGreaterThan(0);
  });
});
