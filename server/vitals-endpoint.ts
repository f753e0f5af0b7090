/**
 * `/vitals`, where pages post their field-metrics beacon (and a landing's campaign, a WhatsApp
 * tap's), answered by the server itself before Express and Remix: their request handling cost
 * several times the beacon's own work (docs/decisions/052-beacon-before-the-app.md).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { CACHE_CONTROL } from "~/http/cache-control";
import type { BodyInput } from "~/http/limited-body.server";
import { type BeaconServices, takeBeacon } from "~/vitals/beacon.server";
import { VITALS_ENDPOINT } from "~/vitals/metrics";
import { answerPlain } from "./responses";

/** The request's body as the beacon reads it; reading stops early without closing the connection. */
function nodeBody(request: IncomingMessage): BodyInput {
  const length = request.headers["content-length"];
  const announced =
    request.headers["transfer-encoding"] !== undefined || (length !== undefined && Number(length) !== 0);
  return {
    contentType: request.headers["content-type"] ?? null,
    contentLength: length ?? null,
    chunks: announced ? request.iterator({ destroyOnReturn: false }) : null,
  };
}

/**
 * The handler: true when the request was for `/vitals` (whatever its query), which it answers:
 * a POST as `takeBeacon` says, anything else 405. Security headers come from ./responses, as
 * for every response.
 */
export function vitalsEndpoint(services: (request: IncomingMessage) => BeaconServices) {
  return (request: IncomingMessage, response: ServerResponse): boolean => {
    const target = request.url ?? "";
    const query = target.indexOf("?");
    if ((query === -1 ? target : target.slice(0, query)) !== VITALS_ENDPOINT) return false;
    if (request.method !== "POST") {
      answerPlain(response, 405, { Allow: "POST" });
      return true;
    }
    takeBeacon(nodeBody(request), services(request)).then(
      (status) => {
        if (status !== 202) return answerPlain(response, status);
        response.setHeader("Cache-Control", CACHE_CONTROL.never);
        response.setHeader("Content-Length", 0);
        response.writeHead(202);
        response.end();
      },
      (error: unknown) => {
        // A visitor gone before the body arrived whole needs no answer and no log line.
        if (request.destroyed || response.headersSent) return void response.destroy();
        console.error(error);
        answerPlain(response, 500);
      },
    );
    return true;
  };
}
