import { expect, type Page } from "@playwright/test";

/**
 * Wheels down the page 500 px at a time, as a reader would. A wheel event only starts a
 * scroll, so each step waits until the page is there before the next.
 */
export async function scrollThrough(page: Page): Promise<void> {
  const bottom = () => page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
  for (let y = 500; y - 500 < (await bottom()); y += 500) {
    await page.mouse.wheel(0, 500);
    const target = Math.min(y, await bottom());
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThanOrEqual(target - 1);
  }
}
