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

/**
 * Whether a page whose clock the test moves is hydrated and rendered whole: Remix's router is
 * up, React has hydrated every section and the footer (Suspense boundaries, hydrated apart
 * after the router), and the head script has rendered the sections below the top, one per
 * animation frame (app/hydration/defer.server.ts). Animation frames are the page's clock's
 * too: stopped before that, the sections below keep a placeholder height, and a scroll to one
 * of them lands where the page then no longer has it.
 */
export function isHydratedAndRendered(page: Page): Promise<boolean> {
  return page.evaluate(
    () =>
      (window as unknown as { __remixRouter?: { state: { initialized: boolean } } }).__remixRouter?.state
        .initialized === true &&
      document.documentElement.classList.contains("painted") &&
      [...document.querySelectorAll("main > *, body > footer")].every((element) =>
        Object.keys(element).some((key) => key.startsWith("__reactFiber$")),
      ),
  );
}
