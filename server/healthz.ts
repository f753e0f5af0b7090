import type { IncomingMessage, ServerResponse } from "node:http";
import { CACHE_CONTROL } from "~/http/cache-control";
import type { LeadService } from "~/leads/leads.server";
import { bearerMatches, healthAnswer } from "./health";
import { answerPlain } from "./responses";

/**
 * `GET /healthz`: 200 `{"status":"ok"}` while the site serves pages, 503 `{"status":"draining"}`
 * at once when draining (the load balancer should stop sending here); the store's state and
 * counts only for `Authorization: Bearer <HEALTH_TOKEN>`.
 */
export function healthz(options: { draining: () => boolean; leads: LeadService; token: string | undefined }) {
  return async (request: IncomingMessage, response: ServerResponse) => {
    if (request.method !== "GET" && request.method !== "HEAD") {
      answerPlain(response, 405, { Allow: "GET, HEAD" });
      return;
    }
    const { authorization } = request.headers;
    // The counts (and a write probe when none ran for a minute) only for the token holder:
    // a load balancer polling the public answer costs nothing.
    const leads = bearerMatches(authorization, options.token) ? await options.leads.health() : null;
    const { status, body } = healthAnswer({
      draining: options.draining(),
      authorization,
      token: options.token,
      details: () => ({ uptime: Math.round(process.uptime()), ...leads }),
    });
    response.setHeader("Content-Type", "application/json");
    response.setHeader("Cache-Control", CACHE_CONTROL.never);
    response.setHeader("Content-Length", Buffer.byteLength(body));
    response.writeHead(status);
    response.end(body);
  };
}
