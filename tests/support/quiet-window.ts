/**
 * The suite's one deliberate wait: a negative check ("nothing more was sent", "the lead stayed
 * in the quarantine") holds for a whole window whose length comes from the constant it guards.
 */
import { expect } from "@playwright/test";

/** How often the window re-checks its assertion, so a breach fails at once, not at the end. */
const RECHECK_MS = 100;

/**
 * A window long enough to see an event that `periodMs` apart can happen `times` times (one
 * full delivery rescan is `windowCovering(SCAN_MS)`), plus a margin for a loaded machine.
 * Take `periodMs` from the app's own constant, never a literal, so the window grows with it.
 */
export function windowCovering(periodMs: number, times = 1, marginMs = 1_000): number {
  return periodMs * times + marginMs;
}

/**
 * Asserts `assertion` throughout `windowMs`: it is checked now, every 100 ms, and once more at
 * the end; the first failure fails the test with that assertion's own message.
 */
export async function expectThroughout(
  windowMs: number,
  assertion: () => void | Promise<void>,
): Promise<void> {
  const end = Date.now() + windowMs;
  for (;;) {
    await assertion();
    const left = end - Date.now();
    if (left <= 0) return;
    await new Promise((resolve) => setTimeout(resolve, Math.min(RECHECK_MS, left)));
  }
}

/** `expectThroughout` for the common case: a count that must stay what it is now. */
export async function expectCountStays(
  windowMs: number,
  count: () => number | Promise<number>,
  expected: number,
): Promise<void> {
  await expectThroughout(windowMs, async () => {
    expect(await count()).toBe(expected);
  });
}
