import type { Env } from "~/env.server";
import { createBudget } from "~/http/budget.server";

/**
 * All visitors together may send this many times a single client's budget: every visitor sends
 * one beacon per page view, so the site-wide level must cover a busy hour while still capping
 * a flood. Visitors the server cannot tell apart (no TRUST_PROXY) meet only this level.
 */
const SITE_BUDGET_FACTOR = 50;

/** The field-metrics beacons' budget: VITALS_RATE_LIMIT per client per window, fifty times that for everyone. */
export function createBeaconBudget(
  config: Pick<Env, "VITALS_RATE_LIMIT" | "VITALS_RATE_WINDOW">,
  now?: () => number,
) {
  const windowMs = config.VITALS_RATE_WINDOW * 1000;
  return createBudget({
    perClient: { limit: config.VITALS_RATE_LIMIT, windowMs },
    site: { limit: config.VITALS_RATE_LIMIT * SITE_BUDGET_FACTOR, windowMs },
    now,
  });
}
