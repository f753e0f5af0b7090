/**
 * A whole page's axe audit as one line per violation, and what a page with JavaScript needs
 * before it is audited: shared by tests/browser/a11y.spec.ts and `npm run check:content`.
 */
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

/** axe's violations on the page as it is now: `rule (impact): selector, selector`, one per rule. */
export async function axeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.map(
    (violation) =>
      `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
  );
}

/**
 * With JavaScript, sections fade in as they scroll into view; axe measures colours as they are
 * at that instant, so a section caught mid-fade reads as low contrast and one not yet revealed
 * is skipped as invisible. Audit what a reader sees: scroll through the page so every section
 * is revealed, then wait until no transition runs. Throws when a section stays unrevealed.
 */
export async function revealEverything(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    for (let y = 0; y < document.documentElement.scrollHeight; y += window.innerHeight / 2) {
      window.scrollTo({ top: y, behavior: "instant" });
      await frame();
      await frame();
    }
    window.scrollTo({ top: 0, behavior: "instant" });
    await frame();
  });
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((animation) => !(animation instanceof CSSTransition) || animation.playState === "finished"),
  );
  const unrevealed = await page.locator(".reveal:not(.reveal-shown)").count();
  if (unrevealed > 0)
    throw new Error(`${unrevealed} sections left unrevealed after scrolling through the page`);
}
