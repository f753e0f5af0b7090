/** The layout shift a page has had once it settles: fonts in, its idle-time work done. */
import type { Page } from "@playwright/test";

/** Cumulative layout shift without recent input, read once the fonts are in and the page has been idle. */
export function settledLayoutShift(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let total = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as (PerformanceEntry & {
            value: number;
            hadRecentInput: boolean;
          })[]) {
            if (!entry.hadRecentInput) total += entry.value;
          }
        }).observe({ type: "layout-shift", buffered: true });
        // Settled once the fonts are in and the page has done the work it leaves for idle time.
        const settled = async () => {
          await document.fonts.ready;
          await new Promise((next) => requestIdleCallback(next));
          await new Promise((next) => requestAnimationFrame(next));
          resolve(total);
        };
        settled();
      }),
  );
}
