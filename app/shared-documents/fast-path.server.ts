/**
 * The server's fast path: a shared document the app has just served, served again for a second
 * without asking the app.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { sharedDocumentPath } from "~/shared-documents/document-cache.server";
import type { SharedDocument } from "~/shared-documents/shared-document.server";

/**
 * How long a shared document the app has just served may be served again without asking the
 * app. The app decides what is shared (its loaders run, its cache key includes their data);
 * within this window a request for the same path that qualifies gets the same document
 * straight from the socket. When the window is over, the next request goes to the app while
 * the others still get the document (so a burst never queues up behind the framework); if the
 * app has not offered the path again within another window, the path is the app's again.
 * A change in loader data (a new year, a new build) therefore shows within two windows, and
 * the app still sees about one request a second per path under any load.
 */
export const fastPathWindowMs = 1_000;

const maxPaths = 64;

interface Offer {
  document: SharedDocument;
  until: number;
  /** When the request that went to the app to renew this offer left. */
  renewingSince?: number;
}

export type FastPath = ReturnType<typeof createFastPath>;

/** The shared documents the app has just served, by path: created once by the server, fed by the app. */
export function createFastPath() {
  const offers = new Map<string, Offer>();
  return {
    /** Called by the app each time it serves `path` as a shared document. */
    offer(path: string, document: SharedDocument, now = Date.now()): void {
      offers.delete(path);
      offers.set(path, { document, until: now + fastPathWindowMs });
      for (const [oldest, offer] of offers) {
        if (offers.size <= maxPaths && offer.until > now - fastPathWindowMs) break;
        offers.delete(oldest);
      }
    },

    /**
     * Answers a request for a document the app served as shared within the last window, in
     * front of the framework, when the request may get the shared document at all (the rule in
     * ./document-cache.server): the same headers, bytes, codings and 304s as the app's own
     * answer. Returns false, touching nothing, for every other request: the app handles it.
     */
    serve(request: IncomingMessage, response: ServerResponse, now = Date.now()): boolean {
      const { method = "" } = request;
      const path = sharedDocumentPath(method, request.url ?? "");
      const offer = path === null ? undefined : offers.get(path);
      if (path === null || !offer) return false;
      if (now >= offer.until) {
        if (offer.renewingSince === undefined) {
          offer.renewingSince = now;
          return false;
        }
        if (now - offer.renewingSince >= fastPathWindowMs) {
          offers.delete(path);
          return false;
        }
      }
      const answer = offer.document.answer({
        method,
        acceptEncoding: request.headers["accept-encoding"],
        ifNoneMatch: request.headers["if-none-match"],
      });
      // setHeader, not writeHead(status, headers): the request log reads them back with getHeader.
      for (const [name, value] of Object.entries(answer.headers)) response.setHeader(name, value);
      response.writeHead(answer.status);
      response.end(answer.body ?? undefined);
      return true;
    },
  };
}
