import type { Page } from "@playwright/test";
import { PARTNERS_AUTOPLAY_DELAY_MS } from "../../app/components/home/partners-autoplay";
import { expect, test } from "../support/fixtures";
import { isHydratedAndRendered, runClockUntil, stopPageClock } from "../support/page-clock";

const partnerNames = ["Reelwave", "BrightLend", "QuarryStack", "Corvanta Consulting", "Technera IT Services"];

function carousel(page: Page) {
  return page.getByRole("region", { name: "Partner logos" });
}

/** The real index (0–4) of the slide Swiper marks active. */
async function activeIndex(page: Page): Promise<number> {
  return Number(
    await page.locator(".partners-swiper .swiper-slide-active").getAttribute("data-swiper-slide-index"),
  );
}

/**
 * Opens the home page with its clock stopped (the carousel then moves only when the test moves
 * the clock) and runs the clock until the page has hydrated: its JavaScript starts from a timer.
 */
async function openWithStoppedClock(page: Page) {
  await stopPageClock(page);
  await page.goto("/");
  await runClockUntil(page, () => isHydratedAndRendered(page), {
    stepMs: 16,
    message: "the page never hydrated and rendered whole",
  });
}

/**
 * Brings the carousel into view and waits until Swiper has taken it over. Nothing of this
 * needs the page's clock, which stays where it was, so a playing carousel's first step is a
 * whole autoplay delay away.
 */
async function scrollToCarousel(page: Page) {
  await carousel(page).scrollIntoViewIfNeeded();
  await expect(carousel(page)).toHaveClass(/swiper-initialized/);
  await expect(page.getByRole("button", { name: /carousel$/ })).toBeEnabled();
}

/**
 * Waits until no slide animation runs. It runs on the real clock (a CSS transition), and
 * autoplay starts its next delay when it ends.
 */
async function slideAtRest(page: Page): Promise<number> {
  await expect
    .poll(() =>
      carousel(page).evaluate(
        (element) => (element as HTMLElement & { swiper: { animating: boolean } }).swiper.animating,
      ),
    )
    .toBe(false);
  return activeIndex(page);
}

/** Runs the page's clock on by one autoplay delay, within which a playing carousel moves on exactly once. */
async function slideAfterOneDelay(page: Page): Promise<number> {
  await page.clock.runFor(PARTNERS_AUTOPLAY_DELAY_MS);
  return slideAtRest(page);
}

/** The carousel moves on by exactly one slide, looping, within one autoplay delay. */
async function expectOneStep(page: Page) {
  const before = await slideAtRest(page);
  expect(await slideAfterOneDelay(page), "one slide on within one autoplay delay").toBe((before + 1) % 5);
}

/** The carousel stays on its slide through one autoplay delay, in which a playing one would move. */
async function expectStill(page: Page) {
  const before = await slideAtRest(page);
  expect(await slideAfterOneDelay(page), "no slide on within one autoplay delay").toBe(before);
}

test("the work banner presents the pet-care app", async ({ page }) => {
  await page.goto("/");
  const section = page.locator("#testimonial");
  await expect(section.getByRole("heading", { name: "Dive Into Our Work" })).toBeVisible();
  const banner = section.getByRole("img", { name: /pet-care app/ });
  await expect(banner).toHaveAttribute("width", "1200");
  await expect(banner).toHaveAttribute("height", "520");
  await expect(banner).toHaveAttribute("loading", "lazy");
  await expect(section.getByRole("heading", { name: "Trusted By" })).toBeVisible();
});

for (const viewport of [
  { width: 1280, height: 800, perView: 3 },
  { width: 375, height: 812, perView: 1 },
]) {
  test.describe(`partner carousel at ${viewport.width} px`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test("Swiper loads only when the carousel nears the viewport, then autoplays", async ({ page }) => {
      await openWithStoppedClock(page);
      await page.waitForLoadState("networkidle");
      await expect(carousel(page)).not.toHaveClass(/swiper-initialized/);
      await scrollToCarousel(page);
      // Slides per view: 3 from 1024 px, 1 below.
      const widths = await page.evaluate(() => {
        const swiper = document.querySelector(".partners-swiper") as HTMLElement;
        const slide = swiper.querySelector(".swiper-slide-active") as HTMLElement;
        return { swiper: swiper.clientWidth, slide: slide.getBoundingClientRect().width };
      });
      expect(Math.round(widths.swiper / widths.slide)).toBe(viewport.perView);
      // Not before its delay, then one slide at a time, looping forever.
      const first = await activeIndex(page);
      await page.clock.runFor(PARTNERS_AUTOPLAY_DELAY_MS - 1);
      expect(await activeIndex(page), "no slide on before the autoplay delay").toBe(first);
      await page.clock.runFor(1);
      expect(await activeIndex(page), "one slide on at the autoplay delay").toBe((first + 1) % 5);
      for (let step = 0; step < 5; step++) await expectOneStep(page);
    });

    test("pauses while hovered and while focused", async ({ page }) => {
      await openWithStoppedClock(page);
      await scrollToCarousel(page);
      await carousel(page).hover();
      await expectStill(page);
      await expectStill(page);
      await page.mouse.move(0, 0);
      await expectOneStep(page);

      await carousel(page).focus();
      await expectStill(page);
      await expectStill(page);
      await page.getByRole("button", { name: "Pause carousel" }).focus();
      await expectOneStep(page);
    });

    test("the pause button stops and restarts autoplay and says which it will do", async ({ page }) => {
      await openWithStoppedClock(page);
      await scrollToCarousel(page);
      await page.getByRole("button", { name: "Pause carousel" }).click();
      const play = page.getByRole("button", { name: "Play carousel" });
      await expect(play).toBeVisible();
      await page.mouse.move(0, 0);
      await expectStill(page);
      await expectStill(page);
      await play.click();
      await expect(page.getByRole("button", { name: "Pause carousel" })).toBeVisible();
      await page.mouse.move(0, 0);
      await expectOneStep(page);
    });

    test("logos are self-hosted images with the brand name as alt text and fixed dimensions", async ({
      page,
    }) => {
      await page.goto("/");
      await scrollToCarousel(page);
      const logos = carousel(page).getByRole("img");
      await expect(logos).toHaveCount(5);
      for (const name of partnerNames) {
        const logo = carousel(page).getByRole("img", { name, exact: true });
        await expect(logo).toHaveAttribute("src", /^\/build\/.+\.svg$/);
        await expect(logo).toHaveAttribute("width", "200");
        await expect(logo).toHaveAttribute("height", "64");
      }
    });
  });
}

test.describe("partner carousel under reduced motion", () => {
  test.use({ contextOptions: { reducedMotion: "reduce" } });

  test("does not autoplay until asked to", async ({ page }) => {
    await openWithStoppedClock(page);
    await scrollToCarousel(page);
    const play = page.getByRole("button", { name: "Play carousel" });
    await expect(play).toBeVisible();
    await page.mouse.move(0, 0);
    await expectStill(page);
    await expectStill(page);
    await play.click();
    await page.mouse.move(0, 0);
    await expectOneStep(page);
  });
});

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 375, height: 812 },
]) {
  test.describe(`partner logos without JavaScript at ${viewport.width} px`, () => {
    test.use({ javaScriptEnabled: false, viewport });

    test("form a static row of all five logos that scrolls by keyboard", async ({ page }) => {
      await page.goto("/");
      const region = carousel(page);
      await expect(region).toHaveAttribute("tabindex", "0");
      await expect(region).not.toHaveClass(/swiper-initialized/);
      for (const name of partnerNames) {
        await expect(region.getByRole("img", { name, exact: true })).toBeAttached();
      }
      const slides = region.locator(".swiper-slide");
      await expect(slides).toHaveCount(5);
      const tops = await slides.evaluateAll((items) => items.map((item) => item.getBoundingClientRect().top));
      expect(new Set(tops).size).toBe(1);
      await expect(page.getByRole("button", { name: /carousel$/ })).toBeHidden();

      const overflow = await region.evaluate((element) => element.scrollWidth - element.clientWidth);
      if (viewport.width < 1280) {
        expect(overflow).toBeGreaterThan(0);
        await region.focus();
        await page.keyboard.press("ArrowRight");
        await expect.poll(() => region.evaluate((element) => element.scrollLeft)).toBeGreaterThan(0);
      }
    });
  });
}
