/**
 * The field-metrics beacons' rate limits: a budget per client, and fifty times that for all
 * visitors together.
 */
import type { Env } from "~/env.server";
import { type Allowance, createLimit, type Limit, type LimitStore, takeEach } from "~/http/limits.server";

/**
 * All visitors together may send this many times a single client's budget: every visitor sends
 * one beacon per page view, so the site-wide level must cover a busy hour while still capping
 * a flood. Visitors the server cannot tell apart (no TRUST_PROXY) meet only this level.
 */
const SITE_BUDGET_FACTOR = 50;

export type BeaconLimitName = "site-wide beacon budget" | "beacon budget";

export interface BeaconLimits {
  site: Limit<"site-wide beacon budget">;
  perClient: Limit<"beacon budget">;
}

/** The field-metrics beacons' budget: VITALS_RATE_LIMIT per client per window, fifty times that for everyone. */
export function createBeaconLimits(
  config: Pick<Env, "VITALS_RATE_LIMIT" | "VITALS_RATE_WINDOW">,
  store?: LimitStore,
): BeaconLimits {
  const windowSeconds = config.VITALS_RATE_WINDOW;
  return {
    site: createLimit({
      name: "site-wide beacon budget",
      limit: config.VITALS_RATE_LIMIT * SITE_BUDGET_FACTOR,
      windowSeconds,
      store,
    }),
    perClient: createLimit({ name: "beacon budget", limit: config.VITALS_RATE_LIMIT, windowSeconds, store }),
  };
}

/** One beacon's unit: of the site-wide budget, and of the client's own when the client is known. */
export function takeBeaconUnit(
  limits: BeaconLimits,
  client: string | null,
): Promise<Allowance<BeaconLimitName>> {
  const takes: Array<{ limit: Limit<BeaconLimitName>; key: string }> = [{ limit: limits.site, key: "site" }];
  if (client !== null) takes.push({ limit: limits.perClient, key: client });
  return takeEach(takes);
}
