import { expect, type Page } from "@playwright/test";

/**
 * Stops the clock of the page about to be opened: its timers (`setTimeout`, animation frames,
 * `Date`) move only when the test moves the clock, so no step of an animation or a delay is
 * missed or overtaken however busy the machine. Call before `page.goto`.
 */
export async function stopPageClock(page: Page): Promise<void> {
  await page.clock.install({ time: new Date("2026-01-05T09:00:00Z") });
  await page.clock.pauseAt(new Date("2026-01-05T09:00:01Z"));
}

/**
 * Moves the stopped clock on `stepMs` at a time until `done()` holds. What the page does in
 * real time meanwhile (hydration, a chunk's download) costs real time, never page time the
 * test counts on.
 */
export async function runClockUntil(
  page: Page,
  done: () => Promise<boolean>,
  { stepMs = 250, message = "the page's clock ran on but the state never came" } = {},
): Promise<void> {
  await expect
    .poll(
      async () => {
        await page.clock.runFor(stepMs);
        return done();
      },
      { intervals: [0], timeout: 20_000, message },
    )
    .toBe(true);
}
