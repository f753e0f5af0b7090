/**
 * What a field-metrics beacon may say, shared by the browser reporter, the endpoint and the
 * operator's summary. Plain constants only: this module ships in the reporter's chunk.
 */

/** The endpoint the browser posts its beacon to (a resource route: app/routes/vitals.ts). */
export const VITALS_ENDPOINT = "/vitals";

export const METRIC_NAMES = ["LCP", "INP", "CLS", "FCP", "TTFB"] as const;
export type MetricName = (typeof METRIC_NAMES)[number];

export const RATINGS = ["good", "needs-improvement", "poor"] as const;
export type Rating = (typeof RATINGS)[number];

/** web-vitals' `navigationType` values. */
export const NAVIGATION_TYPES = [
  "navigate",
  "reload",
  "back-forward",
  "back-forward-cache",
  "prerender",
  "restore",
  "soft-navigation",
] as const;
export type NavigationType = (typeof NAVIGATION_TYPES)[number];

export const DEVICE_CLASSES = ["mobile", "tablet", "desktop"] as const;
export type DeviceClass = (typeof DEVICE_CLASSES)[number];

/** The site's pages (the sitemap's paths) and "404" for every path no page claims. */
export const VITALS_ROUTES = ["/", "/terms-conditions", "/privacy-policy", "/cookie-policy", "404"] as const;
export type VitalsRoute = (typeof VITALS_ROUTES)[number];

/**
 * Google's thresholds: a value up to the first is good, up to the second needs improvement,
 * above it is poor (milliseconds, except CLS, which has no unit).
 */
export const THRESHOLDS: Record<MetricName, readonly [number, number]> = {
  LCP: [2500, 4000],
  INP: [200, 500],
  CLS: [0.1, 0.25],
  FCP: [1800, 3000],
  TTFB: [800, 1800],
};

/**
 * The largest value the endpoint accepts per metric: ten minutes for the timings, 100 for
 * CLS. Anything beyond is a broken clock or a forged beacon, not a visit.
 */
export const MAX_VALUES: Record<MetricName, number> = {
  LCP: 600_000,
  INP: 600_000,
  CLS: 100,
  FCP: 600_000,
  TTFB: 600_000,
};

export interface BeaconMetric {
  name: MetricName;
  value: number;
  rating: Rating;
}

/** The body of one beacon: one page view's metrics. */
export interface Beacon {
  route: VitalsRoute;
  device: DeviceClass;
  navigationType: NavigationType;
  metrics: BeaconMetric[];
}

/** One stored metric: what was measured where, never who measured it. */
export interface VitalsRecord {
  /** The hour it arrived (ISO 8601, minutes dropped). */
  at: string;
  route: VitalsRoute;
  device: DeviceClass;
  nav: NavigationType;
  metric: MetricName;
  value: number;
  rating: Rating;
}

/** The route a page path belongs to; a path no page claims is the 404 page. */
export function routeOf(pathname: string): VitalsRoute {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  return VITALS_ROUTES.find((route) => route === path) ?? "404";
}

/** A coarse device class from the viewport's CSS width (the site's own breakpoints). */
export function deviceClassOf(viewportWidth: number): DeviceClass {
  if (viewportWidth < 768) return "mobile";
  if (viewportWidth < 1024) return "tablet";
  return "desktop";
}

/** Google's rating of a value. */
export function rate(name: MetricName, value: number): Rating {
  const [good, poor] = THRESHOLDS[name];
  if (value <= good) return "good";
  return value <= poor ? "needs-improvement" : "poor";
}
