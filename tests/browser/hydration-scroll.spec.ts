import type { Page } from "@playwright/test";
import { holdClientBundle } from "../support/client-bundle";
import { expect, test } from "../support/fixtures";
import { isHydratedAndRendered } from "../support/page-clock";
import { scrollYAtRest } from "../support/scroll";

// A visitor who follows a navigation link at once, before the page's JavaScript has run,
// lands on its section like one who follows it later, though the page hydrates while the
// browser's smooth scroll is on its way. The bundle is held back until the click, so the click
// always comes first; then the test waits for states only (hydrated, every section rendered,
// the page at rest).

const links = [
  { name: "Services", anchor: "services" },
  { name: "Reviews", anchor: "testimonial" },
  { name: "Insights", anchor: "insights" },
  { name: "LET'S TALK", anchor: "contact" },
] as const;

const navLink = (page: Page, name: string) =>
  page.getByRole("banner").getByRole("navigation", { name: "Main" }).getByRole("link", { name, exact: true });

/**
 * How far the page, once at rest, is from where the browser brings `#anchor` in the page's
 * layout as it is now (the section's top under the sticky header, as the scroll padding says,
 * within the page's scroll range): where a click on the hydrated page lands. `Number.NaN` while
 * the page moves. Measured in the page as it is, never against an earlier load, whose layout
 * may still have been settling (a section below the fold rendered or sized later).
 */
async function distanceFromLanding(page: Page, anchor: string): Promise<number> {
  const restingAt = await scrollYAtRest(page);
  const landing = await page.locator(`#${anchor}`).evaluate((section) => {
    const root = document.documentElement;
    const top =
      section.getBoundingClientRect().top +
      window.scrollY -
      (Number.parseFloat(getComputedStyle(root).scrollPaddingTop) || 0) -
      (Number.parseFloat(getComputedStyle(section).scrollMarginTop) || 0);
    return Math.max(0, Math.min(top, root.scrollHeight - root.clientHeight));
  });
  return Math.abs(restingAt - landing);
}

/** Clicks `name` on the hydrated page at the top, and checks the page comes to rest on `#anchor`. */
async function landsAfterHydration(page: Page, name: string, anchor: string): Promise<void> {
  await page.goto("/");
  await expect.poll(() => isHydratedAndRendered(page)).toBe(true);
  await navLink(page, name).click();
  await expect(page).toHaveURL(new RegExp(`#${anchor}$`));
  await expect.poll(() => distanceFromLanding(page, anchor)).toBeLessThanOrEqual(2);
}

for (const { name, anchor } of links) {
  test(`"${name}" clicked before hydration lands on #${anchor}, where it lands after`, async ({ page }) => {
    await landsAfterHydration(page, name, anchor);

    const release = await holdClientBundle(page);
    await page.goto("/");
    await navLink(page, name).click();
    await expect(page).toHaveURL(new RegExp(`#${anchor}$`));
    release();
    await expect.poll(() => isHydratedAndRendered(page)).toBe(true);
    await expect
      .poll(() => distanceFromLanding(page, anchor), {
        message: `the page rests on #${anchor} (px away from where a click after hydration lands)`,
      })
      .toBeLessThanOrEqual(2);
  });
}

test.describe("under reduced motion", () => {
  test.use({ reducedMotion: "reduce" });

  test('"LET\'S TALK" clicked before hydration jumps to #contact and stays there', async ({ page }) => {
    await landsAfterHydration(page, "LET'S TALK", "contact");
    const release = await holdClientBundle(page);
    await page.goto("/");
    await navLink(page, "LET'S TALK").click();
    await expect(page).toHaveURL(/#contact$/);
    release();
    await expect.poll(() => isHydratedAndRendered(page)).toBe(true);
    await expect.poll(() => distanceFromLanding(page, "contact")).toBeLessThanOrEqual(2);
  });
});
