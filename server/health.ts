import { createHash, timingSafeEqual } from "node:crypto";

/** The details `/healthz` gives to whoever presents HEALTH_TOKEN. */
export interface HealthDetails {
  uptime: number;
  draining: boolean;
  [detail: string]: unknown;
}

/**
 * The answer of `/healthz`: `{"status":"ok"}` (200) or `{"status":"draining"}` (503) for
 * anyone; with `Authorization: Bearer <HEALTH_TOKEN>` (and a token configured) the details too.
 * `details` runs only for the token holder: a load balancer polling the public answer costs nothing.
 */
export async function healthAnswer(options: {
  draining: boolean;
  /** The request's Authorization header, if any. */
  authorization: string | null | undefined;
  token: string | undefined;
  details: () => Omit<HealthDetails, "draining"> | Promise<Omit<HealthDetails, "draining">>;
}): Promise<{ status: 200 | 503; body: string }> {
  const { draining, authorization, token } = options;
  const status = draining ? "draining" : "ok";
  const body = bearerMatches(authorization, token)
    ? { status, ...(await options.details()), draining }
    : { status };
  return { status: draining ? 503 : 200, body: JSON.stringify(body) };
}

/** Whether `authorization` is `Bearer <token>` for a configured token. */
function bearerMatches(authorization: string | null | undefined, token: string | undefined): boolean {
  if (!token || !authorization) return false;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!match?.[1]) return false;
  // Compared as hashes of equal length, in constant time: the answer's timing tells nothing.
  const digest = (text: string) => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest(match[1]), digest(token));
}
