/** What the server accepts as a field-metrics beacon, or a WhatsApp tap's (zod schemas). */
import * as z from "zod";
import { MAX_CAMPAIGN_LENGTH } from "~/content/whatsapp";
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

/**
 * One beacon: strict (no unknown keys), each metric at most once. The device's cores and
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
    metrics: z.array(metricSchema).min(1).max(METRIC_NAMES.length),
  })
  .refine((beacon) => new Set(beacon.metrics.map((metric) => metric.name)).size === beacon.metrics.length, {
    message: "a metric appears twice",
  });

export function parseBeacon(input: unknown): Beacon | null {
  const result = beaconSchema.safeParse(input);
  return result.success ? result.data : null;
}

/** A tap's beacon: strict; its campaign as the page cleans it (campaignWords), or null. */
const tapSchema = z.strictObject({
  tap: z.literal(TAP_KIND),
  route: z.enum(VITALS_ROUTES),
  device: z.enum(DEVICE_CLASSES),
  campaign: z
    .string()
    .regex(
      new RegExp(
        `^[\\p{L}\\p{M}\\p{N}_-](?:[\\p{L}\\p{M}\\p{N} _-]{0,${MAX_CAMPAIGN_LENGTH - 2}}[\\p{L}\\p{M}\\p{N}_-])?$`,
        "u",
      ),
    )
    .nullable(),
});

export function parseTapBeacon(input: unknown): TapBeacon | null {
  const result = tapSchema.safeParse(input);
  return result.success ? result.data : null;
}
