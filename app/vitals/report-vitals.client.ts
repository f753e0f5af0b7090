/**
 * Measures the page's Core Web Vitals in the browser and posts them as one beacon when the page is
 * hidden.
 *
 * What it may send, and why it stays anonymous: docs/decisions/012-anonymous-field-metrics.md.
 */
import { type MetricType, onCLS, onFCP, onINP, onLCP, onTTFB } from "web-vitals";
import { landingOf } from "~/vitals/landing.client";

// A tap loads the reporter's chunk too (it is there already once the page is idle).
export { sendTap } from "~/vitals/tap-beacon.client";

import {
  type Beacon,
  coresBucketOf,
  deviceClassOf,
  memoryBucketOf,
  routeOf,
  VITALS_ENDPOINT,
} from "~/vitals/metrics";

/**
 * Collects the page view's Core Web Vitals and sends them in ONE beacon the first time the
 * page is hidden (the visitor switches tab, navigates away or closes it), as web-vitals
 * recommends: by then LCP is final and CLS and INP have their values for the visit so far.
 * A page restored from the back/forward cache is a new page view and reports again.
 */
export function reportVitals(): void {
  const route = routeOf(window.location.pathname);
  const device = deviceClassOf(window.innerWidth);
  // Coarse buckets only, so they tell a budget phone from a laptop and nobody apart.
  const cores = coresBucketOf(navigator.hardwareConcurrency);
  const memoryGb = memoryBucketOf((navigator as Navigator & { deviceMemory?: number }).deviceMemory);
  let metrics = new Map<MetricType["name"], MetricType>();
  let sent = false;
  // Once per landing: a page restored from the back/forward cache is no new visit.
  let landing = landingOf();

  // Registered before web-vitals' own listener, so the restored page's first metrics land
  // in the fresh batch instead of being cleared with the old one.
  window.addEventListener(
    "pageshow",
    (event) => {
      if (!event.persisted) return;
      metrics = new Map();
      sent = false;
    },
    { capture: true },
  );

  const record = (metric: MetricType) => {
    metrics.set(metric.name, metric);
  };
  onLCP(record);
  // Every INP update, not only the final one: web-vitals handles an interaction's entries at
  // the next idle moment, and when the page is hidden before then (a click that leaves the
  // page) they land after its final report, which would then never come. The batch keeps
  // the latest value, so the beacon still carries one INP.
  onINP(record, { reportAllChanges: true });
  onCLS(record);
  onFCP(record);
  onTTFB(record);

  // web-vitals reports on `visibilitychange` in the capture phase at the window; this
  // listener runs later, at the document, so the batch already holds the final values.
  const flush = () => {
    const list = [...metrics.values()];
    if (sent || (list.length === 0 && !landing)) return;
    sent = true;
    const beacon: Beacon = {
      route,
      device,
      navigationType: list[0]?.navigationType ?? "navigate",
      cores,
      memoryGb,
      metrics: list.map((metric) => ({
        name: metric.name,
        value: metric.name === "CLS" ? Math.round(metric.value * 10_000) / 10_000 : Math.round(metric.value),
        rating: metric.rating,
      })),
      ...(landing ? { landing } : {}),
    };
    landing = undefined;
    send(JSON.stringify(beacon));
  };
  // Only `visibilitychange`, never `pagehide`: on a navigation the browser fires `pagehide`
  // first, before web-vitals has finalised LCP, CLS and INP (which it does on becoming
  // hidden). Every current browser, Safari since 14.1, fires it when a page is unloaded.
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") flush();
  });
}

function queuedAsBeacon(body: string): boolean {
  try {
    return navigator.sendBeacon?.(VITALS_ENDPOINT, new Blob([body], { type: "application/json" })) === true;
  } catch {
    // Some older Chromium releases throw for a JSON Blob instead of sending it.
    return false;
  }
}

function send(body: string): void {
  if (queuedAsBeacon(body)) return;
  fetch(VITALS_ENDPOINT, {
    method: "POST",
    body,
    headers: { "Content-Type": "application/json" },
    keepalive: true,
    credentials: "omit",
  }).catch(() => {
    // Best effort: a lost beacon costs the visitor nothing, and there is no one to tell.
  });
}
