import type { Page } from "@playwright/test";
import { expect, test } from "../support/fixtures";

const partnerNames = ["Reelwave", "BrightLend", "QuarryStack", "Corvanta Consulting", "Technera IT Services"];

function carousel(page: Page) {
  return page.getByRole("region", { name: "Partner logos" });
}

/** The real index (0–4) of the slide Swiper marks active. */
function activeIndex(page: Page): Promise<string | null> {
  return page.locator(".partners-swiper .swiper-slide-active").getAttribute("data-swiper-slide-index");
}

async function scrollToCarousel(page: Page) {
  await carousel(page).scrollIntoViewIfNeeded();
  await expect(carousel(page)).toHaveClass(/swiper-initialized/);
  await expect(page.getByRole("button", { name: /carousel$/ })).toBeEnabled();
}

/** Asserts the active slide does not change for `ms` milliseconds. */
async function expectStill(page: Page, ms: number) {
  const before = await activeIndex(page);
  await page.waitForTimeout(ms);
  expect(await activeIndex(page)).toBe(before);
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
      await page.goto("/");
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
      const first = await activeIndex(page);
      await expect.poll(() => activeIndex(page), { timeout: 4000 }).not.toBe(first);
      const second = await activeIndex(page);
      // One slide at a time, looping forever.
      expect((Number(first) + 1) % 5).toBe(Number(second));
    });

    test("pauses while hovered and while focused", async ({ page }) => {
      await page.goto("/");
      await scrollToCarousel(page);
      await carousel(page).hover();
      await page.waitForTimeout(400);
      await expectStill(page, 2500);
      await page.mouse.move(0, 0);
      const afterHover = await activeIndex(page);
      await expect.poll(() => activeIndex(page), { timeout: 4000 }).not.toBe(afterHover);

      await carousel(page).focus();
      await page.waitForTimeout(400);
      await expectStill(page, 2500);
      await page.getByRole("button", { name: "Pause carousel" }).focus();
      const afterFocus = await activeIndex(page);
      await expect.poll(() => activeIndex(page), { timeout: 4000 }).not.toBe(afterFocus);
    });

    test("the pause button stops and restarts autoplay and says which it will do", async ({ page }) => {
      await page.goto("/");
      await scrollToCarousel(page);
      await page.getByRole("button", { name: "Pause carousel" }).click();
      const play = page.getByRole("button", { name: "Play carousel" });
      await expect(play).toBeVisible();
      await page.mouse.move(0, 0);
      await page.waitForTimeout(400);
      await expectStill(page, 3000);
      await play.click();
      await expect(page.getByRole("button", { name: "Pause carousel" })).toBeVisible();
      await page.mouse.move(0, 0);
      const before = await activeIndex(page);
      await expect.poll(() => activeIndex(page), { timeout: 4000 }).not.toBe(before);
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
    await page.goto("/");
    await scrollToCarousel(page);
    const play = page.getByRole("button", { name: "Play carousel" });
    await expect(play).toBeVisible();
    await page.mouse.move(0, 0);
    await expectStill(page, 3500);
    await play.click();
    await page.mouse.move(0, 0);
    const before = await activeIndex(page);
    await expect.poll(() => activeIndex(page), { timeout: 4000 }).not.toBe(before);
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
