/** How a test knows a page's field-metrics reporter runs (bundled or inline) before it leaves the page. */
import { expect, type Page } from "@playwright/test";

/**
 * Waits until the reporter runs: its chunk has loaded and `reportVitals` has put its listener
 * for `visibilitychange` on the document (React has one there too, from another script). A
 * page left before then sends nothing, by design; a requested chunk is not yet a running
 * reporter on a busy machine. A page without a bundle (`bundled` false) runs the reporter
 * inline: its listener comes from the document itself, which loads no other script.
 */
export async function reporterRunning(page: Page, bundled = true): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  const scriptUrls = new Map<string, string>();
  cdp.on("Debugger.scriptParsed", (script) => scriptUrls.set(script.scriptId, script.url));
  await cdp.send("Debugger.enable");
  const listening = async () => {
    const { result } = await cdp.send("Runtime.evaluate", { expression: "document" });
    const { listeners } = await cdp.send("DOMDebugger.getEventListeners", {
      objectId: result.objectId ?? "",
    });
    return listeners.some((listener) => {
      const url = scriptUrls.get(listener.scriptId) ?? "";
      const fromReporter = bundled ? url.includes("report-vitals") : url !== "" && !url.includes("/build/");
      return listener.type === "visibilitychange" && fromReporter;
    });
  };
  await expect.poll(listening, { message: "the reporter listens for the page being hidden" }).toBe(true);
  await cdp.detach();
}

/** Runs in the page: resolves once the browser has a largest-contentful-paint entry. */
export function largestPaintDone(): Promise<void> {
  return new Promise((resolve) => {
    new PerformanceObserver((_, observer) => {
      observer.disconnect();
      resolve();
    }).observe({ type: "largest-contentful-paint", buffered: true });
  });
}
