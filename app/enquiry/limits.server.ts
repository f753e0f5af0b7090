/**
 * The limits an enquiry must pass (flood level, per-client budget, throttle), and the units it
 * takes of each.
 */
import type { Env } from "~/env.server";
import { type Allowance, createLimit, type Limit, type LimitStore, takeEach } from "~/http/limits.server";

/** The names the log gives the limits that refuse an enquiry. */
export type EnquiryLimitName = "flood level" | "per-client budget" | "throttle";

export interface EnquiryLimits {
  /** ENQUIRY_FLOOD_LIMIT per ENQUIRY_RATE_WINDOW for the whole site, everyone together. */
  flood: Limit<"flood level">;
  /** ENQUIRY_RATE_LIMIT per ENQUIRY_RATE_WINDOW per known client. */
  perClient: Limit<"per-client budget">;
  /** ENQUIRY_THROTTLE: one enquiry per known client per that many seconds (0: off). */
  throttle: Limit<"throttle">;
}

export function createEnquiryLimits(
  env: Pick<Env, "ENQUIRY_RATE_LIMIT" | "ENQUIRY_RATE_WINDOW" | "ENQUIRY_FLOOD_LIMIT" | "ENQUIRY_THROTTLE">,
  store?: LimitStore,
): EnquiryLimits {
  const windowSeconds = env.ENQUIRY_RATE_WINDOW;
  return {
    flood: createLimit({ name: "flood level", limit: env.ENQUIRY_FLOOD_LIMIT, windowSeconds, store }),
    perClient: createLimit({
      name: "per-client budget",
      limit: env.ENQUIRY_RATE_LIMIT,
      windowSeconds,
      store,
    }),
    throttle: createLimit({
      name: "throttle",
      limit: env.ENQUIRY_THROTTLE > 0 ? 1 : 0,
      windowSeconds: env.ENQUIRY_THROTTLE,
      store,
    }),
  };
}

const SITE = "site";

/**
 * One unit of the flood level, and of the client's budget (and throttle) when the client is
 * known: there is no per-client limit for a client without a trustworthy address, because
 * one shared budget would let any visitor shut the form for everyone.
 */
export function takeEnquiryUnits(
  limits: EnquiryLimits,
  client: string | null,
  { throttle }: { throttle: boolean },
): Promise<Allowance<EnquiryLimitName>> {
  const takes: Array<{ limit: Limit<EnquiryLimitName>; key: string }> = [{ limit: limits.flood, key: SITE }];
  if (client !== null) {
    takes.push({ limit: limits.perClient, key: client });
    if (throttle) takes.push({ limit: limits.throttle, key: client });
  }
  return takeEach(takes);
}
