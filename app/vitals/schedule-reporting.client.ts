/**
 * Starts the field-metrics reporter after the page has loaded, unless the visitor asked not to be
 * measured.
 */
interface PrivacySignals {
  globalPrivacyControl?: boolean;
  doNotTrack?: string | null;
}

/** Global Privacy Control or Do Not Track: the visitor asked not to be measured. */
export function visitorOptedOut(): boolean {
  const nav = navigator as Navigator & PrivacySignals;
  const win = window as Window & PrivacySignals;
  return nav.globalPrivacyControl === true || nav.doNotTrack === "1" || win.doNotTrack === "1";
}

/**
 * Starts the field-metrics reporter once the page has loaded and the browser is idle, so
 * web-vitals (about 3 KB) never competes with the page's own loading and never sits in the
 * initial bundle. It reads the page's paint and layout entries from the browser's buffer,
 * so starting late loses nothing.
 */
export function scheduleVitalsReporting(): void {
  if (visitorOptedOut()) return;
  const load = () => {
    import("~/vitals/report-vitals.client")
      .then(({ reportVitals }) => reportVitals())
      .catch(() => {
        // Best effort: a chunk that fails to load costs the visitor nothing.
      });
  };
  const whenIdle = () => {
    if ("requestIdleCallback" in window) window.requestIdleCallback(load, { timeout: 5_000 });
    else setTimeout(load, 1_000);
  };
  if (document.readyState === "complete") whenIdle();
  else window.addEventListener("load", whenIdle, { once: true });
}
