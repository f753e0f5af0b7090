/**
 * Answers the field-metrics beacon: reads, limits, checks and stores it, and says 204 whatever the
 * store does.
 */
import type { AppLoadContext } from "@remix-run/node";
import { CACHE_CONTROL } from "~/http/cache-control";
import { secureResponse } from "~/http/security.server";
import { readJsonBody } from "~/vitals/body.server";
import { takeBeaconUnit } from "~/vitals/rate-limit.server";
import { parseBeacon, parseTapBeacon } from "~/vitals/schema.server";
import { recordsOf, tapRecordOf } from "~/vitals/store.server";

function reply(status: 204 | 400 | 405 | 413 | 429, reason?: string): Response {
  if (reason) console.log(JSON.stringify({ event: "vitals", status, reason }));
  return secureResponse(null, {
    status,
    headers: { "Cache-Control": CACHE_CONTROL.never, ...(status === 405 ? { Allow: "POST" } : {}) },
  });
}

/**
 * Takes one field-metrics beacon (or a WhatsApp tap's): 204 once what it brings is stored, 400
 * for anything malformed, 413 past MAX_BEACON_BYTES, 429 past the client's budget. A landing's
 * visit is counted within its own limits (~/campaigns/landing-limits.server), whatever the
 * metrics' budget says: a flood of metrics never drops a visit. A store that cannot be written
 * still answers 204 (the visitor can do nothing about it; the operator gets one log line).
 */
export async function handleBeacon(
  request: Request,
  {
    client,
    vitals,
    beaconLimits,
    campaigns,
  }: Pick<AppLoadContext, "client" | "vitals" | "beaconLimits" | "campaigns">,
): Promise<Response> {
  if (request.method !== "POST") return reply(405);
  // A malformed beacon counts too: the budget caps what a script can make the server parse.
  const allowance = await takeBeaconUnit(beaconLimits, client);
  const body = await readJsonBody(request);
  if (!body.ok) return reply(body.status, body.reason);
  const tap = parseTapBeacon(body.value);
  const beacon = tap ? null : parseBeacon(body.value);
  if (!tap && !beacon)
    return reply(allowance.allowed ? 400 : 429, allowance.allowed ? "invalid beacon" : allowance.by);
  const landing = beacon?.landing
    ? await campaigns.countLanding(beacon.route, beacon.landing, client)
    : undefined;
  if (!allowance.allowed) return landing === "counted" ? reply(204) : reply(429, allowance.by);
  if (tap) {
    await vitals.append([tapRecordOf(tap, new Date())]);
    await campaigns.countTap(tap.route, tap);
  } else if (beacon) await vitals.append(recordsOf(beacon, new Date()));
  return reply(204);
}

/** Anything but POST. */
export function rejectMethod(): Response {
  return reply(405);
}
