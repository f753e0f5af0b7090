/**
 * The landing reports' own limits, apart from the field metrics', so a flood of metrics never
 * drops a visit: a budget per client, and fifty times it for all visitors together.
 */
import type { Env } from "~/env.server";
import { type Allowance, createLimit, type Limit, type LimitStore, takeEach } from "~/http/limits.server";

/** Every visitor lands once a visit: the site-wide level covers a campaign's burst while capping a flood. */
const SITE_BUDGET_FACTOR = 50;

export type LandingLimitName = "site-wide landing budget" | "landing budget";

export interface LandingLimits {
  site: Limit<"site-wide landing budget">;
  perClient: Limit<"landing budget">;
  /** LANDING_RATE_LIMIT=0: visits are not counted at all. */
  off: boolean;
}

export function createLandingLimits(
  config: Pick<Env, "LANDING_RATE_LIMIT" | "VITALS_RATE_WINDOW">,
  store?: LimitStore,
): LandingLimits {
  const windowSeconds = config.VITALS_RATE_WINDOW;
  return {
    site: createLimit({
      name: "site-wide landing budget",
      limit: config.LANDING_RATE_LIMIT * SITE_BUDGET_FACTOR,
      windowSeconds,
      store,
    }),
    perClient: createLimit({
      name: "landing budget",
      limit: config.LANDING_RATE_LIMIT,
      windowSeconds,
      store,
    }),
    off: config.LANDING_RATE_LIMIT === 0,
  };
}

/** One landing's unit: of the site-wide budget, and of the client's own when the client is known. */
export function takeLandingUnit(
  limits: LandingLimits,
  client: string | null,
): Promise<Allowance<LandingLimitName>> {
  const takes: Array<{ limit: Limit<LandingLimitName>; key: string }> = [{ limit: limits.site, key: "site" }];
  if (client !== null) takes.push({ limit: limits.perClient, key: client });
  return takeEach(takes);
}
