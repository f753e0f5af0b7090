import { expect, test } from "../support/fixtures";

const headlineName = "Pioneering Purposeful Digital Products to Elevate Your Business";
const words = ["Business", "Startup", "Brand"];

/** Samples the visible rotating word every 50 ms for `duration` ms. */
async function sampleWord(page: import("@playwright/test").Page, duration: number): Promise<string[]> {
  return page.evaluate(async (ms) => {
    const target = document.querySelector("[data-typed-target]");
    const seen: string[] = [];
    const end = performance.now() + ms;
    while (performance.now() < end) {
      seen.push(target?.textContent ?? "");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return seen;
  }, duration);
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
      await page.goto("/");
      const heading = page.getByRole("heading", { level: 1 });
      await expect(heading).toHaveAccessibleName(headlineName);
      await expect(page.locator(".typed-cursor")).toHaveCount(1);
      await expect(page.locator(".typed-cursor")).toHaveAttribute("aria-hidden", "true");
      const seen = await sampleWord(page, 3500);
      // Partial words prove typing; 'Startup' follows 'Business'.
      expect(seen.some((text) => text.length > 0 && !words.includes(text))).toBe(true);
      expect(seen).toContain("Startup");
      await expect(heading).toHaveAccessibleName(headlineName);
      // typed.js must not inject its own <style> (the CSP forbids it; the fixture would report it).
      await expect(page.locator("style[data-typed-js-cursor-css]")).toHaveCount(0);
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
  await page.goto("/");
  const seen = await sampleWord(page, 11_000);
  const complete = seen.filter((text, index) => words.includes(text) && seen[index - 1] !== text);
  expect(complete.slice(0, 4)).toEqual(["Business", "Startup", "Brand", "Business"]);
  // The second 'Business' was typed, letter by letter, after 'Brand' was deleted.
  const afterBrand = seen.slice(seen.lastIndexOf("Brand"));
  expect(afterBrand).toContain("Bus");
});

test("the headline animation can be paused and played again (WCAG 2.2.2)", async ({ page }) => {
  await page.goto("/");
  await expect.poll(async () => (await sampleWord(page, 2500)).includes("Startup")).toBe(true);
  await page.getByRole("button", { name: "Pause the headline animation" }).click();
  await expect(page.locator("[data-typed-target]")).toHaveText("Business");
  expect(new Set(await sampleWord(page, 2500))).toEqual(new Set(["Business"]));
  await page.getByRole("button", { name: "Play the headline animation" }).click();
  expect(await sampleWord(page, 3500)).toContain("Startup");
});

test.describe("hero under reduced motion", () => {
  test.use({ contextOptions: { reducedMotion: "reduce" } });

  test("swaps whole words without typing", async ({ page }) => {
    await page.goto("/");
    await expect(page.locator("[data-typed-target]")).toHaveText("Business");
    const seen = await sampleWord(page, 5600);
    expect(seen.every((text) => words.includes(text))).toBe(true);
    expect(seen).toContain("Startup");
    expect(seen).toContain("Brand");
    await expect(page.locator(".typed-cursor")).toHaveCount(0);
    await expect(page.getByRole("heading", { level: 1 })).toHaveAccessibleName(headlineName);
  });
});

test.describe("hero without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("reads in full with 'Business' and no cursor", async ({ page }) => {
    await page.goto("/");
    const heading = page.getByRole("heading", { level: 1 });
    await expect(heading).toHaveAccessibleName(headlineName);
    await expect(page.locator("[data-typed-target]")).toHaveText("Business");
    await expect(page.locator("[data-typed-target]")).toBeVisible();
    await page.waitForTimeout(1500);
    await expect(page.locator("[data-typed-target]")).toHaveText("Business");
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
