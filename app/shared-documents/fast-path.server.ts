import type { IncomingMessage, ServerResponse } from "node:http";
import type { SharedDocument } from "./shared-document.server";

/**
 * How long a shared document the app has just served may be served again without asking the
 * app. The app decides what is shared (its loaders run, its cache key includes their data);
 * within this window a request for the same path that qualifies gets the same document
 * straight from the socket, so a change in loader data (a new year, a new build) shows within
 * one window while the app still sees a request a second per path under any load.
 */
export const fastPathWindowMs = 1_000;

const maxPaths = 64;
const served = new Map<string, { document: SharedDocument; until: number }>();

/** Called by the app each time it serves `path` as a shared document. */
export function offerSharedDocument(path: string, document: SharedDocument, now = Date.now()): void {
  served.delete(path);
  served.set(path, { document, until: now + fastPathWindowMs });
  for (const [oldest, entry] of served) {
    if (served.size <= maxPaths && entry.until > now) break;
    served.delete(oldest);
  }
}

/**
 * Answers a request for a document the app served as shared within the last window, in front
 * of the framework: GET or HEAD, a path without a query, no Cookie header, the same headers,
 * bytes, codings and 304s as the app's own answer. Returns false, touching nothing, for every
 * other request: the app handles it.
 */
export function serveSharedDocument(
  request: IncomingMessage,
  response: ServerResponse,
  now = Date.now(),
): boolean {
  const { method, url } = request;
  if (method !== "GET" && method !== "HEAD") return false;
  if (!url?.startsWith("/") || url.includes("?") || request.headers.cookie !== undefined) return false;
  const entry = served.get(url);
  if (!entry || entry.until <= now) return false;
  const answer = entry.document.answer({
    method,
    acceptEncoding: request.headers["accept-encoding"],
    ifNoneMatch: request.headers["if-none-match"],
  });
  // setHeader, not writeHead(status, headers): a request log reads them back with getHeader.
  for (const [name, value] of Object.entries(answer.headers)) response.setHeader(name, value);
  response.writeHead(answer.status);
  response.end(answer.body ?? undefined);
  return true;
}
