/**
 * Takes the field-metrics beacon: reads, limits and checks it, queues what it brings for the next
 * write, and says 202. The server answers `/vitals` with it before Express and Remix
 * (server/vitals-endpoint.ts; why: docs/decisions/052-beacon-before-the-app.md).
 */
import type { BatchedWrites } from "~/http/batched-writes.server";
import type { BodyInput } from "~/http/limited-body.server";
import type { CampaignFields } from "~/lead-parts/campaign-fields";
import { readJsonBody } from "~/vitals/body.server";
import type { TapRecord, VitalsRecord } from "~/vitals/metrics";
import { type BeaconLimits, takeBeaconUnit } from "~/vitals/rate-limit.server";
import { parseBeacon, parseTapBeacon } from "~/vitals/schema.server";
import { recordsOf, tapRecordOf } from "~/vitals/store.server";

export type BeaconStatus = 202 | 400 | 413 | 429;

/** How a landing's visit and a tap are counted: ~/campaigns/service.server's CampaignCounts. */
export interface BeaconCounting {
  /**
   * Counts a visit that landed on `route` from `fields`' campaign, within the landing limits:
   * `counted`, or `dropped` (the limit's own count goes up instead), or `off`. A beacon's counts
   * are queued for the next write (~/http/batched-writes.server).
   */
  countLanding(
    route: string,
    fields: Partial<Record<keyof CampaignFields, unknown>>,
    client: string | null,
  ): Promise<"counted" | "dropped" | "off">;
  /** Counts a tap on a "Chat on WhatsApp" link of `route`; false when the queue is full. */
  countTap(route: string, fields: Partial<Record<keyof CampaignFields, unknown>>): boolean;
}

/** What a beacon is queued and limited with, and who sent it (null: not known, see TRUST_PROXY). */
export interface BeaconServices {
  /** The field metrics' queue (~/http/batched-writes.server) in front of their store. */
  metrics: BatchedWrites<VitalsRecord | TapRecord>;
  beaconLimits: BeaconLimits;
  campaigns: BeaconCounting;
  client: string | null;
}

function status(code: BeaconStatus, reason?: string): BeaconStatus {
  if (reason) console.log(JSON.stringify({ event: "vitals", status: code, reason }));
  return code;
}

/**
 * Takes one field-metrics beacon (or a WhatsApp tap's): 202 once what it brings is queued for
 * the next write, 400 for anything malformed, 413 past MAX_BEACON_BYTES, 429 past the client's
 * budget. A landing's visit is counted within its own limits (~/campaigns/landing-limits.server),
 * whatever the metrics' budget says: a flood of metrics never drops a visit. A store that cannot
 * be written, or a full queue, still answers 202 (the visitor can do nothing about it; the
 * operator gets one log line).
 */
export async function takeBeacon(
  body: BodyInput,
  { client, metrics, beaconLimits, campaigns }: BeaconServices,
): Promise<BeaconStatus> {
  // A malformed beacon counts too: the budget caps what a script can make the server parse.
  const allowance = await takeBeaconUnit(beaconLimits, client);
  const json = await readJsonBody(body);
  if (!json.ok) return status(json.status, json.reason);
  // Told apart by their `tap` first: a failed parse costs zod several times a successful one.
  const isTap = typeof json.value === "object" && json.value !== null && "tap" in json.value;
  const tap = isTap ? parseTapBeacon(json.value) : null;
  const beacon = isTap ? null : parseBeacon(json.value);
  if (!tap && !beacon) return allowance.allowed ? status(400, "invalid beacon") : status(429, allowance.by);
  const landing = beacon?.landing
    ? await campaigns.countLanding(beacon.route, beacon.landing, client)
    : undefined;
  if (!allowance.allowed) return landing === "counted" ? status(202) : status(429, allowance.by);
  if (tap) {
    metrics.add([tapRecordOf(tap, new Date())]);
    campaigns.countTap(tap.route, tap);
  } else if (beacon) metrics.add(recordsOf(beacon, new Date()));
  return status(202);
}
