/**
 * How many token exchanges /admin's GitHub sign-in makes (each carries the OAuth app's secret to
 * GitHub): a budget per known client, and a level for the whole site (docs/content-editing.md).
 */
import { type Allowance, createLimit, type Limit, type LimitStore, takeEach } from "~/http/limits.server";

export const SIGN_IN_WINDOW_SECONDS = 600;
/** A member of staff signs in once a session; ten tries in ten minutes is more than a mistyped password needs. */
export const SIGN_INS_PER_CLIENT = 10;
/** Everyone together, and everyone when no client is known (no TRUST_PROXY). */
export const SIGN_INS_SITE_WIDE = 30;

export type SignInLimitName = "site-wide sign-in level" | "sign-in budget";

export interface SignInLimits {
  site: Limit<"site-wide sign-in level">;
  perClient: Limit<"sign-in budget">;
}

export function createSignInLimits(store?: LimitStore): SignInLimits {
  const windowSeconds = SIGN_IN_WINDOW_SECONDS;
  return {
    site: createLimit({ name: "site-wide sign-in level", limit: SIGN_INS_SITE_WIDE, windowSeconds, store }),
    perClient: createLimit({ name: "sign-in budget", limit: SIGN_INS_PER_CLIENT, windowSeconds, store }),
  };
}

/** One token exchange: a unit of the site-wide level, and of the client's own budget when the client is known. */
export function takeSignIn(limits: SignInLimits, client: string | null): Promise<Allowance<SignInLimitName>> {
  const takes: Array<{ limit: Limit<SignInLimitName>; key: string }> = [{ limit: limits.site, key: "site" }];
  if (client !== null) takes.push({ limit: limits.perClient, key: client });
  return takeEach(takes);
}
