import { clientKey, createRateLimiter } from "~/enquiry/rate-limit.server";
import { env } from "~/env.server";

/**
 * Visitors whose address the server cannot know (no TRUST_PROXY) share one budget this many
 * times a single client's: every visitor sends one beacon per page view, so the shared
 * budget must cover a busy hour while still capping a flood.
 */
const SHARED_BUDGET_FACTOR = 50;

const windowMs = env.VITALS_RATE_WINDOW * 1000;
const perClient = createRateLimiter({ limit: env.VITALS_RATE_LIMIT, windowMs });
const shared = createRateLimiter({ limit: env.VITALS_RATE_LIMIT * SHARED_BUDGET_FACTOR, windowMs });

/** Counts one beacon for the request's client; false once its budget for the window is spent. */
export function allowBeacon(request: Request): boolean {
  const client = clientKey(request, env.TRUST_PROXY);
  return client === "unknown" ? shared.consume(client) : perClient.consume(client);
}
