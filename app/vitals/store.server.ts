/** What a field metrics store promises (the folder's and PostgreSQL's), and the lines a beacon becomes. */
import { campaignWords } from "~/content/whatsapp";
import { type Beacon, rate, type TapBeacon, type TapRecord, type VitalsRecord } from "~/vitals/metrics";

const HOUR_MS = 60 * 60 * 1000;
/** How long a stored metric is kept at most (the privacy policy says so). */
export const RETENTION_MS = 28 * 24 * HOUR_MS;
/** How often the server drops metrics that have aged out, even with no new beacons. */
export const PRUNE_INTERVAL_MS = HOUR_MS;

/** The hour last written, as text: every beacon of an hour shares it. */
let lastHour = { hour: Number.NaN, text: "" };

const hourOf = (received: Date) => {
  const hour = Math.floor(received.getTime() / HOUR_MS);
  if (hour !== lastHour.hour) lastHour = { hour, text: new Date(hour * HOUR_MS).toISOString() };
  return lastHour.text;
};

/**
 * The line a tap's beacon becomes (the hour it arrived, as for metrics), with its campaign as the
 * chat's message names it (`npm run vitals` lists taps by it; the campaign counts keep the tags).
 */
export function tapRecordOf(beacon: TapBeacon, received: Date): TapRecord {
  const { route, device } = beacon;
  const campaign = campaignWords(beacon.campaign) ?? campaignWords(beacon.source);
  return {
    at: hourOf(received),
    route,
    device,
    nav: "navigate",
    cores: null,
    memoryGb: null,
    metric: "whatsapp-tap",
    value: 1,
    rating: "good",
    campaign,
  };
}

/** The lines one beacon becomes. */
export function recordsOf(beacon: Beacon, received: Date): VitalsRecord[] {
  const hour = hourOf(received);
  return beacon.metrics.map((metric) => ({
    at: hour,
    route: beacon.route,
    device: beacon.device,
    nav: beacon.navigationType,
    cores: beacon.cores,
    memoryGb: beacon.memoryGb,
    metric: metric.name,
    value: metric.value,
    rating: rate(metric.name, metric.value),
  }));
}

export interface VitalsStore {
  /** Appends durably (fsync); false when the folder cannot be written (already logged). */
  append(records: (VitalsRecord | TapRecord)[]): Promise<boolean>;
  /** Starts a new file or deletes the previous one when they have aged out. */
  prune(): Promise<void>;
}
