import type { Page } from "@playwright/test";
import { expect, test } from "../support/fixtures";
import { runClockUntil, stopPageClock } from "../support/page-clock";

const headlineName = "Pioneering Purposeful Digital Products to Elevate Your Business";
const words = ["Business", "Startup", "Brand"];

/**
 * Opens the home page with its clock stopped (tests/support/page-clock.ts): the typing and the
 * word swap move only when the test moves the clock. Every word the page shows is logged as it
 * changes (a MutationObserver), so nothing depends on sampling at the right moment.
 */
async function openWithStoppedClock(page: Page) {
  await stopPageClock(page);
  await page.addInitScript(() => {
    const log: string[] = [];
    Object.assign(window, { __typedWords: log });
    new MutationObserver(() => {
      const target = document.querySelector("[data-typed-target]");
      const current = (window as unknown as { __typedWords: string[] }).__typedWords;
      const text = target?.textContent ?? "";
      if (target && current[current.length - 1] !== text) current.push(text);
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  await page.goto("/");
}

/** The words shown since the log was last restarted, each change once. */
function shownWords(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __typedWords: string[] }).__typedWords);
}

/** Restarts the log with the word on screen now. */
async function restartLog(page: Page) {
  await page.evaluate(() => {
    const text = document.querySelector("[data-typed-target]")?.textContent ?? "";
    Object.assign(window, { __typedWords: [text] });
  });
}

/**
 * Moves the page's clock on a quarter second at a time until the words shown satisfy `done`.
 * The animation may start late (hydration, the typing chunk's download): that costs real time,
 * never page time the test counts on.
 */
async function runClockUntilShown(page: Page, done: (shown: string[]) => boolean): Promise<string[]> {
  await runClockUntil(page, async () => done(await shownWords(page)), {
    message: "the page's clock ran on but the words never got there",
  });
  return shownWords(page);
}

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 375, height: 812 },
]) {
  test.describe(`hero at ${viewport.width} px`, () => {
    test.use({ viewport });

    test("types the rotating word letter by letter, while the heading's name stays one sentence", async ({
      page,
    }) => {
      await openWithStoppedClock(page);
      const heading = page.getByRole("heading", { level: 1 });
      await expect(heading).toHaveAccessibleName(headlineName);
      const cursor = page.locator(".typed-cursor");
      const cursorAnimations = () => cursor.evaluate((element) => element.getAnimations().length);
      // The cursor blinks while the word rests and holds still while letters come and go.
      await runClockUntilShown(
        page,
        (shown) => (shown.at(-1)?.length ?? 0) > 0 && !words.includes(shown.at(-1) ?? ""),
      );
      expect(await cursorAnimations()).toBe(0);
      const seen = await runClockUntilShown(page, (shown) => shown.at(-1) === "Startup");
      expect(await cursorAnimations()).toBe(1);
      await expect(cursor).toHaveCount(1);
      await expect(cursor).toHaveAttribute("aria-hidden", "true");
      // Partial words prove typing; 'Startup' follows 'Business'.
      expect(seen.some((text) => text.length > 0 && !words.includes(text))).toBe(true);
      expect(seen).toContain("Startup");
      await expect(heading).toHaveAccessibleName(headlineName);
    });

    test("calls to action go to the contact and services sections", async ({ page }) => {
      await page.goto("/");
      await expect(page.getByRole("link", { name: "Start now" })).toHaveAttribute("href", "#contact");
      await expect(page.getByRole("link", { name: "Learn more about our services" })).toHaveAttribute(
        "href",
        "#services",
      );
      await page.getByRole("link", { name: "Learn more about our services" }).click();
      await expect(page).toHaveURL(/#services$/);
      await expect(page.getByRole("heading", { name: "Our Services" })).toBeInViewport();
    });

    test("the illustration has alt text and intrinsic dimensions", async ({ page }) => {
      await page.goto("/");
      const art = page.locator("section[aria-labelledby=hero-heading] img");
      await expect(art).toHaveAttribute("alt", /browser window and a phone/);
      await expect(art).toHaveAttribute("width", "560");
      await expect(art).toHaveAttribute("height", "480");
    });
  });
}

test("the typed word loops: Startup, Brand, then Business typed afresh", async ({ page }) => {
  await openWithStoppedClock(page);
  const completeWords = (shown: string[]) =>
    shown.filter((text, index) => words.includes(text) && shown[index - 1] !== text);
  const seen = await runClockUntilShown(page, (shown) => completeWords(shown).length >= 4);
  const complete = completeWords(seen);
  expect(complete.slice(0, 4)).toEqual(["Business", "Startup", "Brand", "Business"]);
  // The second 'Business' was typed, letter by letter, after 'Brand' was deleted.
  const afterBrand = seen.slice(seen.lastIndexOf("Brand"));
  expect(afterBrand).toContain("Bus");
});

test("the headline animation can be paused and played again (WCAG 2.2.2)", async ({ page }) => {
  await openWithStoppedClock(page);
  await runClockUntilShown(page, (shown) => shown.includes("Startup"));
  await page.getByRole("button", { name: "Pause the headline animation" }).click();
  await expect(page.locator("[data-typed-target]")).toHaveText("Business");
  await restartLog(page);
  await page.clock.runFor(2500);
  expect(new Set(await shownWords(page))).toEqual(new Set(["Business"]));
  await page.getByRole("button", { name: "Play the headline animation" }).click();
  await restartLog(page);
  expect(await runClockUntilShown(page, (shown) => shown.includes("Startup"))).toContain("Startup");
});

test.describe("hero under reduced motion", () => {
  test.use({ contextOptions: { reducedMotion: "reduce" } });

  test("swaps whole words without typing", async ({ page }) => {
    await openWithStoppedClock(page);
    await expect(page.locator("[data-typed-target]")).toHaveText("Business");
    const seen = await runClockUntilShown(
      page,
      (shown) => shown.includes("Startup") && shown.includes("Brand"),
    );
    expect(seen.every((text) => words.includes(text))).toBe(true);
    expect(seen).toContain("Startup");
    expect(seen).toContain("Brand");
    await expect(page.locator(".typed-cursor")).toHaveCount(0);
    await expect(page.getByRole("heading", { level: 1 })).toHaveAccessibleName(headlineName);
  });
});

test.describe("hero without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("reads in full with 'Business', still, and no cursor", async ({ page }) => {
    await page.goto("/");
    const heading = page.getByRole("heading", { level: 1 });
    await expect(heading).toHaveAccessibleName(headlineName);
    await expect(page.locator("[data-typed-target]")).toHaveText("Business");
    await expect(page.locator("[data-typed-target]")).toBeVisible();
    // Only CSS could move anything here: no animation or transition runs in the heading.
    const running = await heading.evaluate((element) =>
      element.getAnimations({ subtree: true }).map((animation) => animation.constructor.name),
    );
    expect(running).toEqual([]);
    await expect(page.locator(".typed-cursor")).toHaveCount(0);
    await expect(page.getByRole("button", { name: /headline animation/ })).toBeHidden();
  });
});

test.describe("tiny-screen line break", () => {
  for (const [width, display] of [
    [420, "inline"],
    [421, "none"],
    [375, "inline"],
    [1280, "none"],
  ] as const) {
    test(`is ${display === "none" ? "absent" : "present"} at ${width} px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 800 });
      await page.goto("/");
      const display_ = await page.locator("h1 br").evaluate((element) => getComputedStyle(element).display);
      expect(display_).toBe(display);
    });
  }
});
