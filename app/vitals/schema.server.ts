import * as z from "zod";
import {
  type Beacon,
  DEVICE_CLASSES,
  MAX_VALUES,
  METRIC_NAMES,
  NAVIGATION_TYPES,
  RATINGS,
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

/** One beacon: strict (no unknown keys), each metric at most once. */
export const beaconSchema = z
  .strictObject({
    route: z.enum(VITALS_ROUTES),
    device: z.enum(DEVICE_CLASSES),
    navigationType: z.enum(NAVIGATION_TYPES),
    metrics: z.array(metricSchema).min(1).max(METRIC_NAMES.length),
  })
  .refine((beacon) => new Set(beacon.metrics.map((metric) => metric.name)).size === beacon.metrics.length, {
    message: "a metric appears twice",
  });

export function parseBeacon(input: unknown): Beacon | null {
  const result = beaconSchema.safeParse(input);
  return result.success ? result.data : null;
}
