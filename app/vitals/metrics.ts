/**
 * What a field-metrics beacon may say, shared by the browser reporter, the endpoint and the
 * operator's summary. Plain constants only: this module ships in the reporter's chunk.
 */
import type { CampaignFields } from "~/lead-parts/campaign-fields";

/** The endpoint the browser posts its beacon to (answered by the server: server/vitals-endpoint.ts). */
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

/** `navigator.hardwareConcurrency`, rounded down to one of these (logical cores). */
export const CORE_BUCKETS = [1, 2, 4, 8, 16] as const;
export type CoreBucket = (typeof CORE_BUCKETS)[number];

/** `navigator.deviceMemory` as Chromium reports it (GiB, rounded down to a power of two, capped at 8). */
export const MEMORY_BUCKETS = [0.25, 0.5, 1, 2, 4, 8] as const;
export type MemoryBucket = (typeof MEMORY_BUCKETS)[number];

/**
 * The site's pages: the fixed ones (the sitemap's own paths), the content pages by their route's
 * pattern (a `:name` stands for one path segment), and "404" for every path no page claims. The
 * store keeps one of these, never a path, so a visit's page and its query stay out of it.
 */
export const VITALS_ROUTES = [
  "/",
  "/terms-conditions",
  "/privacy-policy",
  "/cookie-policy",
  "/privacy/withdraw",
  "/case-studies",
  "/case-studies/:slug",
  "/insights",
  "/insights/page/:page",
  "/insights/:slug",
  "404",
] as const;
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

/** The body of one beacon: one page view's metrics, and once per landing its campaign. */
export interface Beacon {
  route: VitalsRoute;
  device: DeviceClass;
  navigationType: NavigationType;
  /** Null where the browser does not say (deviceMemory is Chromium's only). */
  cores: CoreBucket | null;
  memoryGb: MemoryBucket | null;
  metrics: BeaconMetric[];
  /** Present on the first page of a visit from another site or from none: the campaign it came from. */
  landing?: CampaignFields;
}

/** One stored metric: what was measured where, never who measured it. */
export interface VitalsRecord {
  /** The hour it arrived (ISO 8601, minutes dropped). */
  at: string;
  route: VitalsRoute;
  device: DeviceClass;
  nav: NavigationType;
  cores: CoreBucket | null;
  memoryGb: MemoryBucket | null;
  metric: MetricName;
  value: number;
  rating: Rating;
}

/** A tap on a "Chat on WhatsApp" link: a count, not a measurement. */
export const TAP_KIND = "whatsapp";

/** The beacon of one tap: where, on what class of device, and the campaign the visit came from. */
export interface TapBeacon extends Partial<CampaignFields> {
  tap: typeof TAP_KIND;
  route: VitalsRoute;
  device: DeviceClass;
  campaign: string | null;
}

/**
 * One stored tap, in the same store as the metrics (a line of the file, a row of `vitals`): its
 * `metric` is none of METRIC_NAMES, so the metrics' summary (and an older release) skips it.
 */
export interface TapRecord {
  at: string;
  route: VitalsRoute;
  device: DeviceClass;
  nav: "navigate";
  cores: null;
  memoryGb: null;
  metric: "whatsapp-tap";
  value: 1;
  rating: "good";
  campaign: string | null;
}

/** The route a page path belongs to; a path no page claims is the 404 page. */
export function routeOf(pathname: string): VitalsRoute {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  return (
    VITALS_ROUTES.find((route) => new RegExp(`^${route.replace(/:\w+/g, "[^/]+")}$`).test(path)) ?? "404"
  );
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

/** The largest bucket at or below `value`; null when there is none (absent, zero, not a number). */
function bucketOf<T extends number>(buckets: readonly T[], value: unknown): T | null {
  if (typeof value !== "number" || !Number.isFinite(value)) return null;
  return buckets.filter((bucket) => bucket <= value).at(-1) ?? null;
}

/** Coarse, anonymous: a 6-core phone counts as 4, a 12-core laptop as 8. */
export function coresBucketOf(hardwareConcurrency: unknown): CoreBucket | null {
  return bucketOf(CORE_BUCKETS, hardwareConcurrency);
}

/** What the browser reports, kept within the buckets (a browser reporting more than 8 GiB counts as 8). */
export function memoryBucketOf(deviceMemory: unknown): MemoryBucket | null {
  return bucketOf(MEMORY_BUCKETS, deviceMemory);
}

export const DEVICE_TIERS = ["low-end", "other", "unknown"] as const;
export type DeviceTier = (typeof DEVICE_TIERS)[number];

/**
 * The one definition of a low-end device: at most 4 logical cores or at most 2 GiB of memory.
 * Chromium rounds memory down to a power of two, so "2" is any phone with less than 4 GB: the
 * entry-level Android phones most of our visitors in India carry, whose eight slow cores
 * would otherwise pass for a laptop's. Four cores or fewer is an older or cheaper phone, or
 * an old laptop, where a page's JavaScript queues on one slow main thread. Either signal is
 * enough; a device that reports neither (Safari and Firefox report no memory, lines stored
 * before these fields existed have neither) is "unknown" rather than guessed.
 */
export function deviceTierOf({
  cores,
  memoryGb,
}: {
  cores: CoreBucket | null;
  memoryGb: MemoryBucket | null;
}): DeviceTier {
  if ((cores !== null && cores <= 4) || (memoryGb !== null && memoryGb <= 2)) return "low-end";
  return cores === null && memoryGb === null ? "unknown" : "other";
}
