import { env } from "~/env.server";
import { clientAddress, createBudget } from "~/http/budget.server";

/**
 * All visitors together may send this many times a single client's budget: every visitor sends
 * one beacon per page view, so the site-wide level must cover a busy hour while still capping
 * a flood. Visitors the server cannot tell apart (no TRUST_PROXY) meet only this level.
 */
const SITE_BUDGET_FACTOR = 50;

const windowMs = env.VITALS_RATE_WINDOW * 1000;
const budget = createBudget({
  perClient: { limit: env.VITALS_RATE_LIMIT, windowMs },
  site: { limit: env.VITALS_RATE_LIMIT * SITE_BUDGET_FACTOR, windowMs },
});

/** Counts one beacon for the request's client; false once its budget (or the site's) is spent. */
export function allowBeacon(request: Request): boolean {
  const client = clientAddress(request, env.TRUST_PROXY);
  if (!budget.check(client).allowed) return false;
  budget.record(client);
  return true;
}
