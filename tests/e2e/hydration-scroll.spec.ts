import type { Page } from "@playwright/test";
import { holdClientBundle } from "../support/client-bundle";
import { waitForHydration } from "../support/enquiry-page";
import { expect, test } from "../support/fixtures";
import { scrollYAtRest } from "../support/scroll";

// A visitor who follows a navigation link at once, before the page's JavaScript has run,
// lands on its section like one who follows it later, though the page hydrates while the
// browser's smooth scroll is on its way. The bundle is held back until the click, so the click
// always comes first; then the test waits for states only (hydrated, the services' served
// disclosures gone, the page at rest).

const links = [
  { name: "Services", anchor: "services" },
  { name: "Reviews", anchor: "testimonial" },
  { name: "Insights", anchor: "insights" },
  { name: "LET'S TALK", anchor: "contact" },
] as const;

const navLink = (page: Page, name: string) =>
  page.getByRole("banner").getByRole("navigation", { name: "Main" }).getByRole("link", { name, exact: true });

/** Where the page comes to rest when `name` is clicked on the hydrated page at the top. */
async function landingAfterHydration(page: Page, name: string): Promise<number> {
  await page.goto("/");
  await waitForHydration(page);
  await expect(page.locator('[data-services-variant="disclosures"]')).toHaveCount(0);
  const ended = page.evaluate(
    () => new Promise((resolve) => addEventListener("scrollend", resolve, { once: true })),
  );
  await navLink(page, name).click();
  await ended;
  return page.evaluate(() => window.scrollY);
}

for (const { name, anchor } of links) {
  test(`"${name}" clicked before hydration lands on #${anchor}, where it lands after`, async ({ page }) => {
    const expected = await landingAfterHydration(page, name);
    // The section's top sits below the sticky header, as the scroll padding says.
    const belowHeader = await page
      .locator(`#${anchor}`)
      .evaluate(
        (section) =>
          section.getBoundingClientRect().top -
          Number.parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop),
      );
    expect(Math.abs(belowHeader)).toBeLessThan(2);

    const release = await holdClientBundle(page);
    await page.goto("/");
    await expect(page.locator('[data-services-variant="disclosures"]')).toBeAttached();
    await navLink(page, name).click();
    await expect(page).toHaveURL(new RegExp(`#${anchor}$`));
    release();
    await waitForHydration(page);
    await expect(page.locator('[data-services-variant="disclosures"]')).toHaveCount(0);
    await expect
      .poll(async () => Math.abs((await scrollYAtRest(page)) - expected), {
        message: `the page rests on #${anchor} (px away from where a click after hydration lands)`,
      })
      .toBeLessThanOrEqual(2);
  });
}

test.describe("under reduced motion", () => {
  test.use({ reducedMotion: "reduce" });

  test('"LET\'S TALK" clicked before hydration jumps to #contact and stays there', async ({ page }) => {
    const expected = await landingAfterHydration(page, "LET'S TALK");
    const release = await holdClientBundle(page);
    await page.goto("/");
    await navLink(page, "LET'S TALK").click();
    await expect(page).toHaveURL(/#contact$/);
    release();
    await waitForHydration(page);
    await expect(page.locator('[data-services-variant="disclosures"]')).toHaveCount(0);
    await expect.poll(async () => Math.abs((await scrollYAtRest(page)) - expected)).toBeLessThanOrEqual(2);
  });
});
