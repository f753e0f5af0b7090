/**
 * The operator's summary of the field metrics: the 75th percentile of each metric per route and
 * device class, rated; and the WhatsApp taps per campaign.
 */
import {
  CORE_BUCKETS,
  DEVICE_CLASSES,
  DEVICE_TIERS,
  type DeviceTier,
  deviceTierOf,
  MEMORY_BUCKETS,
  METRIC_NAMES,
  type MetricName,
  NAVIGATION_TYPES,
  type Rating,
  rate,
  type TapRecord,
  THRESHOLDS,
  VITALS_ROUTES,
  type VitalsRecord,
} from "~/vitals/metrics";

/** The period the summary covers, as in Google's Chrome UX Report. */
export const SUMMARY_WINDOW_MS = 28 * 24 * 60 * 60 * 1000;

/**
 * The p-th percentile by the nearest-rank method: the smallest value such that at least p %
 * of the sample is at or below it, i.e. the ⌈p/100 × n⌉-th smallest. Always one of the
 * sample's own values; NaN for an empty sample.
 */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1] as number;
}

/**
 * The stored lines that are well-formed records; anything else (a torn last line) is skipped.
 * Lines stored before the device's cores and memory were recorded read with both null.
 */
export function parseRecords(text: string): VitalsRecord[] {
  const records: VitalsRecord[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    try {
      const parsed = JSON.parse(line) as Partial<VitalsRecord>;
      const record = { ...parsed, cores: parsed.cores ?? null, memoryGb: parsed.memoryGb ?? null };
      if (isVitalsRecord(record)) records.push(record);
    } catch {
      // A line torn by a crash: the rest of the file is still good.
    }
  }
  return records;
}

/** Whether a stored record (a file's line, a database row) is one the summary can count. */
export function isVitalsRecord(record: Partial<VitalsRecord>): record is VitalsRecord {
  return (
    typeof record.at === "string" &&
    Number.isFinite(Date.parse(record.at)) &&
    VITALS_ROUTES.some((route) => route === record.route) &&
    DEVICE_CLASSES.some((device) => device === record.device) &&
    NAVIGATION_TYPES.some((nav) => nav === record.nav) &&
    METRIC_NAMES.some((name) => name === record.metric) &&
    typeof record.value === "number" &&
    Number.isFinite(record.value) &&
    (record.cores === null || CORE_BUCKETS.some((cores) => cores === record.cores)) &&
    (record.memoryGb === null || MEMORY_BUCKETS.some((memory) => memory === record.memoryGb))
  );
}

/** Whether a stored line or row is a WhatsApp tap (route, device, campaign and time as the endpoint writes them). */
export function isTapRecord(record: Partial<TapRecord> | Record<string, unknown>): record is TapRecord {
  const tap = record as Partial<TapRecord>;
  return (
    tap.metric === "whatsapp-tap" &&
    typeof tap.at === "string" &&
    Number.isFinite(Date.parse(tap.at)) &&
    VITALS_ROUTES.some((route) => route === tap.route) &&
    DEVICE_CLASSES.some((device) => device === tap.device) &&
    (tap.campaign === null || typeof tap.campaign === "string")
  );
}

/** The taps among a file's lines; anything else is skipped. */
export function parseTaps(text: string): TapRecord[] {
  const taps: TapRecord[] = [];
  for (const line of text.split("\n")) {
    if (!line.includes('"whatsapp-tap"')) continue;
    try {
      const parsed = JSON.parse(line) as Record<string, unknown>;
      if (isTapRecord(parsed)) taps.push(parsed);
    } catch {
      // A line torn by a crash.
    }
  }
  return taps;
}

/** Taps per campaign (`(none)`: a visit from no campaign) over the 28 days before `now`, most first. */
export function tapsPerCampaign(taps: readonly TapRecord[], now: Date): { campaign: string; taps: number }[] {
  const from = now.getTime() - SUMMARY_WINDOW_MS;
  const counts = new Map<string, number>();
  for (const tap of taps) {
    const at = Date.parse(tap.at);
    if (at < from || at > now.getTime()) continue;
    const campaign = tap.campaign ?? "(none)";
    counts.set(campaign, (counts.get(campaign) ?? 0) + 1);
  }
  return [...counts]
    .map(([campaign, count]) => ({ campaign, taps: count }))
    .sort((a, b) => b.taps - a.taps || a.campaign.localeCompare(b.campaign));
}

/** The taps per campaign as the operator reads them. */
export function formatTaps(rows: readonly { campaign: string; taps: number }[]): string {
  if (rows.length === 0) return "WhatsApp taps per campaign (28 days): none.";
  const width = Math.max("campaign".length, ...rows.map((row) => row.campaign.length));
  return [
    "WhatsApp taps per campaign (28 days; (none): a visit from no campaign):",
    "",
    `${"campaign".padEnd(width)}  taps`,
    ...rows.map((row) => `${row.campaign.padEnd(width)}  ${String(row.taps).padStart(4)}`),
  ].join("\n");
}

/** The metrics compared between low-end and other devices: loading and responsiveness. */
export const TIER_METRICS = ["INP", "LCP"] as const satisfies readonly MetricName[];

export interface TierSummary {
  route: VitalsRecord["route"];
  tier: DeviceTier;
  metrics: MetricSummary[];
}

export interface MetricSummary {
  metric: MetricName;
  p75: number;
  rating: Rating;
  samples: number;
}

export interface GroupSummary {
  route: VitalsRecord["route"];
  device: VitalsRecord["device"];
  metrics: MetricSummary[];
}

export interface Summary {
  from: Date;
  to: Date;
  samples: number;
  /** Per route (the site's order) and device class (mobile first), groups with samples only. */
  groups: GroupSummary[];
  /** Per route and device tier (low-end, other, unknown: `deviceTierOf`), INP and LCP only. */
  tiers: TierSummary[];
  /** Every value in the window per metric, all routes and devices together. */
  values: Record<MetricName, number[]>;
}

function summariseMetric(metric: MetricName, values: readonly number[]): MetricSummary {
  const p75 = percentile(values, 75);
  return { metric, p75, rating: rate(metric, p75), samples: values.length };
}

/** The 75th percentile of each metric per route and device over the 28 days before `now`. */
export function summarise(records: readonly VitalsRecord[], now: Date): Summary {
  const from = new Date(now.getTime() - SUMMARY_WINDOW_MS);
  const recent = records.filter((record) => {
    const at = Date.parse(record.at);
    return at >= from.getTime() && at <= now.getTime();
  });
  const values = Object.fromEntries(METRIC_NAMES.map((name) => [name, [] as number[]])) as Record<
    MetricName,
    number[]
  >;
  for (const record of recent) values[record.metric].push(record.value);

  const groups: GroupSummary[] = [];
  for (const route of VITALS_ROUTES) {
    for (const device of DEVICE_CLASSES) {
      const inGroup = recent.filter((record) => record.route === route && record.device === device);
      if (inGroup.length === 0) continue;
      const metrics: MetricSummary[] = [];
      for (const name of METRIC_NAMES) {
        const sample = inGroup.filter((record) => record.metric === name).map((record) => record.value);
        if (sample.length > 0) metrics.push(summariseMetric(name, sample));
      }
      groups.push({ route, device, metrics });
    }
  }
  const tiers: TierSummary[] = [];
  for (const route of VITALS_ROUTES) {
    for (const tier of DEVICE_TIERS) {
      const inGroup = recent.filter((record) => record.route === route && deviceTierOf(record) === tier);
      const metrics: MetricSummary[] = [];
      for (const name of TIER_METRICS) {
        const sample = inGroup.filter((record) => record.metric === name).map((record) => record.value);
        if (sample.length > 0) metrics.push(summariseMetric(name, sample));
      }
      if (metrics.length > 0) tiers.push({ route, tier, metrics });
    }
  }
  return { from, to: now, samples: recent.length, groups, tiers, values };
}

/** A value as the operator reads it: CLS unitless to three places, the rest in whole ms. */
export function formatValue(metric: MetricName, value: number): string {
  return metric === "CLS" ? value.toFixed(3) : `${Math.round(value)} ms`;
}

export const RATING_LABELS: Record<Rating, string> = {
  good: "good",
  "needs-improvement": "needs improvement",
  poor: "poor",
};

/** The thresholds as the report states them, e.g. "good ≤ 2500 ms, poor > 4000 ms". */
export function thresholdText(metric: MetricName): string {
  const [good, poor] = THRESHOLDS[metric];
  return `good ≤ ${formatValue(metric, good)}, poor > ${formatValue(metric, poor)}`;
}

const day = (date: Date) => date.toISOString().slice(0, 10);

/** The summary as a plain-text table. */
export function formatSummary(summary: Summary): string {
  const header = [
    `Field metrics from ${day(summary.from)} to ${day(summary.to)} (28 days): ${summary.samples} samples.`,
    "75th percentile (nearest rank) per route and device class; ratings by Google's thresholds.",
  ];
  if (summary.groups.length === 0) return [...header, "", "No samples in this period."].join("\n");
  const byDevice = table(
    "device",
    summary.groups.map((group) => ({ route: group.route, by: group.device, metrics: group.metrics })),
  );
  const byTier = table(
    "devices",
    summary.tiers.map((group) => ({ route: group.route, by: group.tier, metrics: group.metrics })),
  );
  return [
    ...header,
    "",
    ...byDevice,
    "",
    "INP and LCP on low-end devices (at most 4 cores or at most 2 GB of memory) and the others; unknown: the browser reported neither.",
    "",
    ...byTier,
    "",
    ...METRIC_NAMES.map((name) => `${name}: ${thresholdText(name)}`),
  ].join("\n");
}

/** Rows of route, one grouping column, metric, p75, rating and samples, aligned. */
function table(
  column: string,
  groups: readonly { route: string; by: string; metrics: readonly MetricSummary[] }[],
): string[] {
  const rows = [["route", column, "metric", "p75", "rating", "samples"]];
  for (const group of groups) {
    for (const metric of group.metrics) {
      rows.push([
        group.route,
        group.by,
        metric.metric,
        formatValue(metric.metric, metric.p75),
        RATING_LABELS[metric.rating],
        String(metric.samples),
      ]);
    }
  }
  const widths = rows[0]?.map((_, index) => Math.max(...rows.map((row) => row[index]?.length ?? 0))) ?? [];
  return rows.map((row) =>
    row
      .map((cell, index) =>
        index >= 3 && index !== 4 ? cell.padStart(widths[index] ?? 0) : cell.padEnd(widths[index] ?? 0),
      )
      .join("  ")
      .trimEnd(),
  );
}

export interface HistogramBin {
  from: number;
  to: number;
  count: number;
}

/**
 * Counts `values` into `bins` equal bins from 0 to twice the metric's poor threshold; the
 * last bin also holds everything beyond, so no sample falls off the chart.
 */
export function histogram(metric: MetricName, values: readonly number[], bins = 20): HistogramBin[] {
  const max = THRESHOLDS[metric][1] * 2;
  const width = max / bins;
  const result = Array.from({ length: bins }, (_, index) => ({
    from: index * width,
    to: (index + 1) * width,
    count: 0,
  }));
  for (const value of values) {
    const index = Math.min(bins - 1, Math.max(0, Math.floor(value / width)));
    const bin = result[index];
    if (bin) bin.count += 1;
  }
  return result;
}
