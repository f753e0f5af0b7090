/**
 * The 301 from a page's other spellings (`/INSIGHTS/…`, a trailing slash, `%2D`) to its one
 * path, in front of the fast path and the app, with the query kept.
 *
 * Why: docs/decisions/043-one-spelling-per-page.md.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { redirectCacheControl } from "~/http/cache-control";
import { canonicalPath } from "~/http/canonical-path";
import { answerPlain } from "./responses";

/**
 * Answers a GET or HEAD for a page spelt otherwise than its canonical path (~/http/canonical-path)
 * with 301 to it, the query as it came (a mistyped campaign link keeps its campaign; a lone `?`
 * is dropped), shared-cacheable without a query and `private, no-store` with one. `isPage` says
 * whether a path names one of the app's routes. True when it answered; false, touching nothing,
 * for every other request.
 */
export function redirectToCanonical(
  request: IncomingMessage,
  response: ServerResponse,
  isPage: (path: string) => boolean,
): boolean {
  if (request.method !== "GET" && request.method !== "HEAD") return false;
  const target = request.url ?? "";
  const queryAt = target.indexOf("?");
  const pathname = queryAt === -1 ? target : target.slice(0, queryAt);
  const canonical = canonicalPath(pathname, isPage);
  if (canonical === null || canonical === pathname) return false;
  const query = queryAt === -1 || queryAt === target.length - 1 ? "" : target.slice(queryAt);
  const location = `${canonical}${query}`;
  answerPlain(response, 301, {
    Location: location,
    "Cache-Control": redirectCacheControl(target, location),
  });
  return true;
}
