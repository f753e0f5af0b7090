/** The limits a withdrawal's tries must pass: per enquiry reference, and per client or for the whole site. */
import { createHmac, randomBytes } from "node:crypto";
import type { Env } from "~/env.server";
import { type Allowance, createLimit, type Limit, type LimitStore, takeEach } from "~/http/limits.server";

/** The names the log gives the limits that refuse a try. */
export type WithdrawalLimitName = "per-reference tries" | "per-client tries" | "site-wide tries";

export interface WithdrawalLimits {
  /** WITHDRAWAL_REFERENCE_LIMIT per WITHDRAWAL_RATE_WINDOW per reference, whoever tries it. */
  perReference: Limit<"per-reference tries">;
  /** WITHDRAWAL_RATE_LIMIT per window per known client (TRUST_PROXY). */
  perClient: Limit<"per-client tries">;
  /** WITHDRAWAL_SITE_LIMIT per window, every client without a known address together. */
  siteWide: Limit<"site-wide tries">;
  /**
   * A reference as its limit counts it: an HMAC under a key derived from NOTICE_SECRET, so the
   * counters (in PostgreSQL, rows every replica shares) never hold what the visitor typed.
   */
  referenceKey(reference: string): string;
}

export function createWithdrawalLimits(
  env: Pick<
    Env,
    | "WITHDRAWAL_REFERENCE_LIMIT"
    | "WITHDRAWAL_RATE_LIMIT"
    | "WITHDRAWAL_SITE_LIMIT"
    | "WITHDRAWAL_RATE_WINDOW"
    | "NOTICE_SECRET"
  >,
  store?: LimitStore,
): WithdrawalLimits {
  const windowSeconds = env.WITHDRAWAL_RATE_WINDOW;
  // Without NOTICE_SECRET a key of this process: each server then counts a reference on its own.
  const key = createHmac("sha256", env.NOTICE_SECRET ?? randomBytes(32))
    .update("withdrawal-reference-limit.v1")
    .digest();
  return {
    referenceKey: (reference) => createHmac("sha256", key).update(reference).digest("base64url"),
    perReference: createLimit({
      name: "per-reference tries",
      limit: env.WITHDRAWAL_REFERENCE_LIMIT,
      windowSeconds,
      store,
    }),
    perClient: createLimit({
      name: "per-client tries",
      limit: env.WITHDRAWAL_RATE_LIMIT,
      windowSeconds,
      store,
    }),
    siteWide: createLimit({
      name: "site-wide tries",
      limit: env.WITHDRAWAL_SITE_LIMIT,
      windowSeconds,
      store,
    }),
  };
}

const SITE = "site";

/**
 * One unit of the reference's tries, and of the client's (or, when no client address is known,
 * the site's): the reference's limit holds however many clients guess at one enquiry, the other
 * however many references one client guesses. Every try counts, matched or not, so the limits
 * say nothing of what is stored.
 */
export function takeWithdrawalUnits(
  limits: WithdrawalLimits,
  client: string | null,
  reference: string,
): Promise<Allowance<WithdrawalLimitName>> {
  return takeEach<WithdrawalLimitName>([
    { limit: limits.perReference, key: limits.referenceKey(reference) },
    client === null ? { limit: limits.siteWide, key: SITE } : { limit: limits.perClient, key: client },
  ]);
}
