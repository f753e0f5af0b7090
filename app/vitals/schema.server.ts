/** What the server accepts as a field-metrics beacon, or a WhatsApp tap's (zod schemas). */
import * as z from "zod";
import { MAX_TAG_LENGTH } from "~/lead-parts/campaign-fields";
import { CLICK_IDS } from "~/lead-parts/click-ids";
import {
  type Beacon,
  CORE_BUCKETS,
  DEVICE_CLASSES,
  MAX_VALUES,
  MEMORY_BUCKETS,
  METRIC_NAMES,
  NAVIGATION_TYPES,
  RATINGS,
  TAP_KIND,
  type TapBeacon,
  VITALS_ROUTES,
} from "~/vitals/metrics";

const metricSchema = z
  .strictObject({
    name: z.enum(METRIC_NAMES),
    value: z.number().finite().min(0),
    rating: z.enum(RATINGS),
  })
  .refine((metric) => metric.value <= MAX_VALUES[metric.name], {
    message: "value out of range",
    path: ["value"],
  });

/** Exactly one of `values` (a number, not a string), or null. */
const oneOf = <T extends number>(values: readonly T[]) =>
  z.custom<T>((value) => values.some((allowed) => allowed === value)).nullable();

/** A campaign tag as the page read it: at most MAX_TAG_LENGTH characters (cleaned when counted), or null. */
const tag = z
  .string()
  .refine((value) => Array.from(value).length <= MAX_TAG_LENGTH, "tag too long")
  .nullable();

/** A landing's (or a tap's) campaign: the tags, the click id's kind, the referring host. */
const campaignShape = {
  source: tag,
  medium: tag,
  campaign: tag,
  click: z.enum(CLICK_IDS).nullable(),
  host: z.string().max(253).nullable(),
};

/**
 * One beacon: strict (no unknown keys), each metric at most once; a landing may come with no
 * metric yet (a visitor who leaves before the first paint). The device's cores and
 * memory must be one of their buckets or null; a beacon from a page of an earlier build,
 * which sends neither, is stored with both null.
 */
export const beaconSchema = z
  .strictObject({
    route: z.enum(VITALS_ROUTES),
    device: z.enum(DEVICE_CLASSES),
    navigationType: z.enum(NAVIGATION_TYPES),
    cores: oneOf(CORE_BUCKETS).default(null),
    memoryGb: oneOf(MEMORY_BUCKETS).default(null),
    metrics: z.array(metricSchema).max(METRIC_NAMES.length),
    landing: z.strictObject(campaignShape).optional(),
  })
  .refine((beacon) => new Set(beacon.metrics.map((metric) => metric.name)).size === beacon.metrics.length, {
    message: "a metric appears twice",
  })
  .refine((beacon) => beacon.metrics.length > 0 || beacon.landing !== undefined, {
    message: "no metric and no landing",
  });

export function parseBeacon(input: unknown): Beacon | null {
  const result = beaconSchema.safeParse(input);
  return result.success ? result.data : null;
}

/**
 * A tap's beacon: strict; its visit's campaign as a landing's (a page of an earlier build sends
 * its `campaign` alone, as its message named it).
 */
const tapSchema = z.strictObject({
  tap: z.literal(TAP_KIND),
  route: z.enum(VITALS_ROUTES),
  device: z.enum(DEVICE_CLASSES),
  ...campaignShape,
  source: tag.default(null),
  medium: tag.default(null),
  click: campaignShape.click.default(null),
  host: campaignShape.host.default(null),
});

export function parseTapBeacon(input: unknown): TapBeacon | null {
  const result = tapSchema.safeParse(input);
  return result.success ? result.data : null;
}
