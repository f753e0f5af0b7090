/**
 * Whether a request to the local editor comes from the site's own /admin/ page: its `Host` is the
 * site's (a page on a rebinding domain sends its own name), its `Origin` is the site's (a page on
 * any other origin, `localhost` on another port included, sends its own), and it carries the
 * run's token, which only /admin/config.yml on that host hands out.
 */
import { timingSafeEqual } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";

export interface LocalEditorOrigin {
  /** SITE_URL's origin, `http://localhost:3000`. */
  origin: string;
  /** The token `npm run content` made for this run. */
  token: string;
}

/** Why a request reaching /admin is not on the site's own host, or undefined when it is. */
export function refusalOfHost(
  headers: IncomingHttpHeaders,
  { origin }: LocalEditorOrigin,
): string | undefined {
  return headers.host === new URL(origin).host ? undefined : "its Host is not the site's";
}

const sameToken = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/** Why a call of the local editor's API is not the site's own /admin/ page's, or undefined when it is. */
export function refusalOfCaller(
  headers: IncomingHttpHeaders,
  token: unknown,
  allowed: LocalEditorOrigin,
): string | undefined {
  const host = refusalOfHost(headers, allowed);
  if (host) return host;
  if (headers.origin !== allowed.origin) return "its Origin is not the site's";
  if (typeof token !== "string" || !sameToken(token, allowed.token)) return "its token is missing or wrong";
  return undefined;
}
