import { expect, test } from "../support/fixtures";
import { scrollThrough } from "../support/scroll";

test("'Our Core Values' describes Simple, Reliable and Care in software terms", async ({ page }) => {
  await page.goto("/");
  const section = page.locator("#insights");
  await expect(section.getByRole("heading", { level: 2 })).toHaveText("Our Core Values");
  await expect(section.getByRole("heading", { level: 3 })).toHaveText(["Simple", "Reliable", "Care"]);
  await expect(section).toContainText("code review");
  await expect(page.locator("main")).not.toContainText(/insurance|policyholder|premium/i);
});

test("the contact section introduces the team and its direct lines", async ({ page }) => {
  await page.goto("/");
  const section = page.locator("#contact");
  await expect(section.getByRole("heading", { level: 2 })).toHaveText("Let's build something purposeful");
  await expect(section.getByRole("link", { name: "hello@nirmaan.digital" })).toHaveAttribute(
    "href",
    "mailto:hello@nirmaan.digital",
  );
  await expect(section.getByRole("link", { name: "+91 80 4718 2290" })).toHaveAttribute(
    "href",
    "tel:+918047182290",
  );
});

test("sections keep the spec's order and anchors", async ({ page }) => {
  await page.goto("/");
  const ids = await page
    .locator("main section[id]")
    .evaluateAll((sections) => sections.map((section) => section.id));
  expect(ids).toEqual(["services", "testimonial", "insights", "contact"]);
});

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 375, height: 812 },
]) {
  test.describe(`motion and imagery at ${viewport.width} px`, () => {
    test.use({ viewport });

    test("sections below the fold fade in when scrolled to; those in view are never hidden", async ({
      page,
    }) => {
      // Where each element stood at the moment it was hidden, taken by the page itself: the
      // classes come once hydration is done and the observer has reported, which a slow machine
      // reaches after the network is idle (the list read then was empty: "expected > 0, received 0").
      await page.addInitScript(() => {
        const hidden: { top: number; viewportHeight: number }[] = [];
        Object.assign(window, { hiddenReveals: hidden });
        new MutationObserver((records) => {
          for (const { target, oldValue } of records) {
            const element = target as Element;
            if (!element.classList.contains("reveal") || /\breveal\b/.test(oldValue ?? "")) continue;
            hidden.push({ top: element.getBoundingClientRect().top, viewportHeight: window.innerHeight });
          }
        }).observe(document, { subtree: true, attributeFilter: ["class"], attributeOldValue: true });
      });
      await page.goto("/");

      const insights = page.locator("#insights > div");
      await expect(insights).toHaveClass(/\breveal\b/);
      const hidden = await page.evaluate(
        () =>
          (window as unknown as { hiddenReveals: { top: number; viewportHeight: number }[] }).hiddenReveals,
      );
      expect(hidden.length).toBeGreaterThan(0);
      for (const { top, viewportHeight } of hidden) expect(top).toBeGreaterThanOrEqual(viewportHeight * 0.9);
      await expect(insights).toHaveCSS("opacity", "0");
      await scrollThrough(page);
      await expect(insights).toHaveClass(/reveal-shown/);
      await expect(insights).toHaveCSS("opacity", "1");
      await expect(page.locator(".reveal:not(.reveal-shown)")).toHaveCount(0);
    });

    test("opening the page at an anchor shows that section at once", async ({ page }) => {
      await page.goto("/#insights");
      await page.waitForLoadState("networkidle");
      await expect(page.locator("#insights > div")).toHaveCSS("opacity", "1");
    });

    test("every image has alt text, width and height, and loads", async ({ page }) => {
      await page.goto("/");
      await scrollThrough(page);
      // Displayed images: the services' variant this width does not show keeps its own lazily.
      const images = page.locator("main img:visible");
      expect(await images.count()).toBeGreaterThanOrEqual(8);
      for (const image of await images.all()) {
        await expect(image).toHaveAttribute("alt", /\S/);
        await expect(image).toHaveAttribute("width", /^\d+$/);
        await expect(image).toHaveAttribute("height", /^\d+$/);
        await image.scrollIntoViewIfNeeded();
        await expect
          .poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth))
          .toBeGreaterThan(0);
      }
    });
  });
}

test.describe("motion under reduced motion", () => {
  test.use({ contextOptions: { reducedMotion: "reduce" } });

  test("adds no animation classes", async ({ page }) => {
    await page.goto("/");
    await scrollThrough(page);
    await expect(page.locator(".reveal")).toHaveCount(0);
    await expect(page.locator("#insights > div")).toHaveCSS("opacity", "1");
  });
});

test.describe("motion without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("every section is visible with no animation classes", async ({ page }) => {
    await page.goto("/");
    await expect(page.locator(".reveal")).toHaveCount(0);
    for (const id of ["services", "testimonial", "insights", "contact"]) {
      await page.locator(`#${id}`).scrollIntoViewIfNeeded();
      await expect(page.locator(`#${id} h2`).first()).toBeAttached();
      await expect(page.locator(`#${id} > div`).first()).toHaveCSS("opacity", "1");
    }
  });
});

// The hero's own largest element: its illustration where the grid gives it a column, its
// heading where the illustration sits below it on a narrow screen.
for (const { width, height, largest, selector } of [
  {
    width: 1280,
    height: 800,
    largest: "illustration",
    selector: 'section[aria-labelledby="hero-heading"] img',
  },
  { width: 375, height: 812, largest: "heading", selector: "h1#hero-heading" },
]) {
  test(`at ${width} px the largest paint is the hero's ${largest} and nothing shifts while the page loads`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height });
    await page.goto("/");
    const metrics = await page.evaluate(
      (expectedSelector) =>
        new Promise<{ lcp: string; expected: string; cls: number }>((resolve) => {
          const identify = (element: Element | null | undefined) =>
            element
              ? `<${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ""}> in ${
                  element.closest("section")?.getAttribute("aria-labelledby") ?? "no section"
                }: ${(element.getAttribute("alt") ?? element.textContent ?? "").trim().slice(0, 40)}`
              : "none";
          let lcp: Element | null | undefined;
          let cls = 0;
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries() as (PerformanceEntry & { element?: Element | null })[]) {
              lcp = entry.element;
            }
          }).observe({ type: "largest-contentful-paint", buffered: true });
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries() as (PerformanceEntry & {
              value: number;
              hadRecentInput: boolean;
            })[]) {
              if (!entry.hadRecentInput) cls += entry.value;
            }
          }).observe({ type: "layout-shift", buffered: true });
          // Loading is over once the fonts are in, the largest paint is known and the page has
          // done the work it leaves for idle time (hydration, the reveal effect, the reporter).
          const settled = async () => {
            await document.fonts.ready;
            while (lcp === undefined) await new Promise((next) => requestAnimationFrame(next));
            await new Promise((next) => requestIdleCallback(next));
            await new Promise((next) => requestAnimationFrame(next));
            resolve({
              lcp: identify(lcp),
              expected: identify(document.querySelector(expectedSelector)),
              cls,
            });
          };
          settled();
        }),
      selector,
    );
    expect(metrics.expected, "the hero's element is on the page").not.toBe("none");
    expect(metrics.lcp, "the largest contentful paint").toBe(metrics.expected);
    expect(metrics.cls).toBeLessThan(0.02);
  });
}
