import type { Page } from "@playwright/test";

/**
 * Holds every request for the page's JavaScript (as a slow network or device would) until the
 * returned function is called; the page and its code are the real ones.
 */
export async function holdClientBundle(page: Page): Promise<() => void> {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/build\/.*\.js(\?|$)/, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}
