import type { IncomingMessage, ServerResponse } from "node:http";
import { CACHE_CONTROL } from "~/http/cache-control";
import type { LeadService } from "~/leads/leads.server";
import { answerPlain } from "./responses";

/**
 * `GET /healthz`: 200 while the site serves pages (a broken lead store or a delivery backlog
 * shows in the body), 503 at once when draining, so the load balancer stops sending here.
 */
export function healthz(draining: () => boolean, leads: LeadService) {
  return (request: IncomingMessage, response: ServerResponse) => {
    if (request.method !== "GET" && request.method !== "HEAD") {
      answerPlain(response, 405, { Allow: "GET, HEAD" });
      return;
    }
    const status = draining() ? "draining" : "ok";
    const body = JSON.stringify({ status, uptime: Math.round(process.uptime()), ...leads.health() });
    response.setHeader("Content-Type", "application/json");
    response.setHeader("Cache-Control", CACHE_CONTROL.never);
    response.setHeader("Content-Length", Buffer.byteLength(body));
    response.writeHead(status === "ok" ? 200 : 503);
    response.end(body);
  };
}
