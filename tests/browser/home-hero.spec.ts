import type { Page } from "@playwright/test";
import { expect, test } from "../support/fixtures";
import { runClockUntil, stopPageClock } from "../support/page-clock";

const headlineName = "Pioneering Purposeful Digital Products to Elevate Your Business";
const words = ["Business", "Startup", "Brand"];

/** What the page logs each time the word changes: the word, the page's clock, the layout. */
interface Change {
  text: string;
  at: number;
  /** The word's box, the heading's size and the top of what follows it, in CSS pixels. */
  layout: string;
}

/**
 * Opens the home page with its clock stopped (tests/support/page-clock.ts): typed.js and the
 * word swap move only when the test moves the clock. Every word the page shows is logged as it
 * changes (a MutationObserver), with the page's time and the heading's layout then, so nothing
 * depends on sampling at the right moment.
 */
async function openWithStoppedClock(page: Page) {
  await stopPageClock(page);
  await page.addInitScript(() => {
    const log = { words: [] as string[], changes: [] as Change[] };
    Object.assign(window, { __typed: log });
    new MutationObserver(() => {
      const target = document.querySelector("[data-typed-target]");
      const heading = target?.closest("h1");
      const current = (window as unknown as { __typed: typeof log }).__typed;
      const text = target?.textContent ?? "";
      if (!target || !heading || current.words[current.words.length - 1] === text) return;
      const word = target.closest("[data-typed-word]")?.getBoundingClientRect();
      const box = heading.getBoundingClientRect();
      const next = heading.nextElementSibling?.getBoundingClientRect().top ?? 0;
      current.words.push(text);
      current.changes.push({
        text,
        at: Date.now(),
        layout: `word ${word?.width}×${word?.height}, heading ${box.width}×${box.height}, then ${next}`,
      });
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  await page.goto("/");
}

/** The words shown since the log was last restarted, each change once. */
function shownWords(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __typed: { words: string[] } }).__typed.words);
}

/** Each change since the log was last restarted, with its time and layout. */
function changes(page: Page): Promise<Change[]> {
  return page.evaluate(() => (window as unknown as { __typed: { changes: Change[] } }).__typed.changes);
}

/** Restarts the log with the word on screen now. */
async function restartLog(page: Page) {
  await page.evaluate(() => {
    const text = document.querySelector("[data-typed-target]")?.textContent ?? "";
    Object.assign(window, { __typed: { words: [text], changes: [] } });
  });
}

/**
 * Moves the page's clock on a quarter second at a time until the words shown satisfy `done`.
 * The animation may start late (hydration, typed.js's download): that costs real time, never
 * page time the test counts on.
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
      // typed.js finds the word complete one keystroke (100–150 ms) after its last letter.
      await runClockUntil(page, async () => (await cursorAnimations()) === 1, {
        stepMs: 50,
        message: "the cursor never blinked while 'Startup' rested",
      });
      await expect(page.locator("[data-typed-target]")).toHaveText("Startup");
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
  // The layout is logged from here: the web font is in, and nothing but the word changes it.
  await page.evaluate(async () => {
    await document.fonts.ready;
  });
  await restartLog(page);
  const completeWords = (shown: string[]) =>
    shown.filter((text, index) => words.includes(text) && shown[index - 1] !== text);
  const seen = await runClockUntilShown(page, (shown) => completeWords(shown).length >= 4);
  const complete = completeWords(seen);
  expect(complete.slice(0, 4)).toEqual(["Business", "Startup", "Brand", "Business"]);
  // The second 'Business' was typed, letter by letter, after 'Brand' was deleted.
  const afterBrand = seen.slice(seen.lastIndexOf("Brand"));
  expect(afterBrand).toContain("Bus");
  // Nothing moved: the word's box and the heading kept their size, and what follows them its
  // place, at every letter.
  const layouts = new Set((await changes(page)).map((change) => change.layout));
  expect(layouts.size, [...layouts].join(" | ")).toBe(1);
});

test("typed.js types at the specification's pace: 100 ms a letter, 700 ms at rest on a word", async ({
  page,
}) => {
  await openWithStoppedClock(page);
  await runClockUntilShown(page, (shown) => shown.includes("Brand"));
  const log = await changes(page);
  const steps = log.slice(1).map((change, index) => {
    const before = log[index] ?? change;
    return { from: before.text, to: change.text, ms: change.at - before.at };
  });
  const typing = steps.filter(
    (step) => step.to.length === step.from.length + 1 && step.to.startsWith(step.from),
  );
  const deleting = steps.filter(
    (step) => step.from.startsWith(step.to) && step.from.length === step.to.length + 1,
  );
  // A rest: a word typed whole (not the one on screen before typed.js began), then a letter gone.
  const rests = deleting.filter(
    (step) => words.includes(step.from) && typing.some((typed) => typed.to === step.from),
  );
  // typed.js waits its typeSpeed, and up to half as long again at random ('humanize'), per letter.
  // It writes the letter in a zero-delay timer set inside that wait's callback, which the page's
  // clock runs 1 ms later when the test's clock step set it: a letter takes 100 to 151 ms.
  const nestedTimerMs = 1;
  expect(typing.length).toBeGreaterThan(5);
  for (const step of typing) expect(step.ms, `${step.from} to ${step.to}`).toBeGreaterThanOrEqual(100);
  for (const step of typing) {
    expect(step.ms, `${step.from} to ${step.to}`).toBeLessThanOrEqual(150 + nestedTimerMs);
  }
  for (const step of deleting.filter((step) => !rests.includes(step) && step !== deleting[0])) {
    // backSpeed 50, humanized the same way.
    expect(step.ms, `${step.from} to ${step.to}`).toBeGreaterThanOrEqual(50);
    expect(step.ms, `${step.from} to ${step.to}`).toBeLessThanOrEqual(75);
  }
  // At rest: the keystroke that finds the word complete, backDelay (700 ms), then two backspace
  // steps before a letter goes (typed.js's first one writes the whole word again).
  expect(rests.length).toBeGreaterThan(0);
  for (const step of rests) {
    expect(step.ms, `${step.from} at rest`).toBeGreaterThanOrEqual(100 + 700 + 2 * 50);
    expect(step.ms, `${step.from} at rest`).toBeLessThanOrEqual(150 + nestedTimerMs + 700 + 2 * 75);
  }
});

test("the word is typed by typed.js 2.1 (MIT), not 3 (GPL-3.0), and it adds no style of its own", async ({
  page,
  request,
}) => {
  await page.goto("/");
  await expect(page.locator(".typed-cursor")).toHaveCount(1);
  const scripts = await page.evaluate(() =>
    performance
      .getEntriesByType("resource")
      .map((entry) => entry.name)
      .filter((url) => /\.js$/.test(new URL(url).pathname)),
  );
  const bodies = await Promise.all(scripts.map(async (url) => (await request.get(url)).text()));
  // Only typed.js knows the attribute of the <style> it would insert for its cursor.
  const typedJs = bodies.filter((body) => body.includes("data-typed-js-cursor-css"));
  expect(typedJs).toHaveLength(1);
  // 'shouldBackspace' is the option typed.js 3.0 added.
  expect(typedJs[0]).not.toContain("shouldBackspace");
  // autoInsertCss is off: the cursor's style is app.css's (the CSP would refuse typed.js's own,
  // and the page's fixture reports any violation).
  await expect(page.locator("style[data-typed-js-cursor-css]")).toHaveCount(0);
  await expect(page.locator(".typed-cursor")).toHaveCSS("font-weight", "300");
});

test("the headline animation can be paused and played again (WCAG 2.2.2)", async ({ page }) => {
  await openWithStoppedClock(page);
  await runClockUntilShown(page, (shown) => shown.includes("Startup"));
  await page.getByRole("button", { name: "Pause the headline animation" }).click();
  await expect(page.locator("[data-typed-target]")).toHaveText("Business");
  // Nothing moves while paused, the cursor included (typed.js's stop() would leave it blinking).
  await expect(page.locator(".typed-cursor")).toHaveCount(0);
  await restartLog(page);
  await page.clock.runFor(2500);
  expect(new Set(await shownWords(page))).toEqual(new Set(["Business"]));
  await page.getByRole("button", { name: "Play the headline animation" }).click();
  await restartLog(page);
  expect(await runClockUntilShown(page, (shown) => shown.includes("Startup"))).toContain("Startup");
});

test.describe("hero under reduced motion", () => {
  test.use({ contextOptions: { reducedMotion: "reduce" } });

  test("swaps whole words without typing, and never fetches typed.js", async ({ page }) => {
    const scripts: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname);
    });
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
    expect(
      scripts.some((path) => path.includes("/routes/_index-")),
      "the home route's script",
    ).toBe(true);
    expect(scripts.filter((path) => path.includes("hero-typing"))).toEqual([]);
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
