import { expect, type Page } from "@playwright/test";

/**
 * Scrolls down the page 500 px at a time, smoothly, as a reader would: every frame of the way
 * is rendered, so an observer sees each element pass. Each step ends on the page's own
 * `scrollend` event and is checked by position, so a step a busy machine cut short (or a
 * page that grew meanwhile) is taken again, never assumed.
 */
export async function scrollThrough(page: Page): Promise<void> {
  for (let y = 500; ; y += 500) {
    const bottom = await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
    const target = Math.min(y, bottom);
    await expect(async () => {
      await page.evaluate(scrollSmoothlyTo, target);
      expect(await page.evaluate(() => window.scrollY)).toBeGreaterThanOrEqual(target - 1);
    }).toPass();
    if (y >= bottom) return;
  }
}

/**
 * Runs in the page: starts a smooth scroll to `top` and resolves when it has come to rest.
 * A scroll that never starts (the page is already there, or cannot go further) fires no
 * `scrollend`; two rendered frames without a `scroll` event tell that case apart.
 */
function scrollSmoothlyTo(top: number): Promise<void> {
  return new Promise((resolve) => {
    if (Math.abs(window.scrollY - top) < 1) return resolve();
    let moved = false;
    window.addEventListener("scroll", () => (moved = true), { once: true });
    window.addEventListener("scrollend", () => resolve(), { once: true });
    window.scrollTo({ top, behavior: "smooth" });
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        if (!moved) resolve();
      }),
    );
  });
}

/**
 * The page's scroll position once it is at rest (two successive frames read the same), or
 * `Number.NaN` while it moves: for `expect.poll`, so a page passing through a position never
 * counts as having landed there.
 */
export function scrollYAtRest(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const first = window.scrollY;
        requestAnimationFrame(() =>
          requestAnimationFrame(() => resolve(window.scrollY === first ? first : Number.NaN)),
        );
      }),
  );
}
