import type { IncomingMessage, ServerResponse } from "node:http";
import type { Database, DatabaseState } from "~/db/database.server";
import { CACHE_CONTROL } from "~/http/cache-control";
import type { LeadService } from "~/leads/leads.server";
import { healthAnswer } from "./health";
import { answerPlain } from "./responses";

/**
 * `GET /healthz`: 200 `{"status":"ok"}` while the site serves pages, 503 `{"status":"draining"}`
 * at once when draining (the load balancer should stop sending here); the store's state and
 * counts, and with DATABASE_URL the database's state, only for `Authorization: Bearer <HEALTH_TOKEN>`.
 */
export function healthz(options: {
  draining: () => boolean;
  leads: LeadService;
  database: Database | null;
  token: string | undefined;
}) {
  return async (request: IncomingMessage, response: ServerResponse) => {
    if (request.method !== "GET" && request.method !== "HEAD") {
      answerPlain(response, 405, { Allow: "GET, HEAD" });
      return;
    }
    const { status, body } = await healthAnswer({
      draining: options.draining(),
      authorization: request.headers.authorization,
      token: options.token,
      details: async () => ({
        uptime: Math.round(process.uptime()),
        ...(await options.leads.health()),
        ...(options.database ? { database: describeDatabase(options.database.state()) } : {}),
      }),
    });
    response.setHeader("Content-Type", "application/json");
    response.setHeader("Cache-Control", CACHE_CONTROL.never);
    response.setHeader("Content-Length", Buffer.byteLength(body));
    response.writeHead(status);
    response.end(body);
  };
}

/** `"ok"`, or the state with its cause (which the database describes without the password). */
export function describeDatabase(state: DatabaseState): "ok" | { state: string; cause?: string } {
  if (state.status === "ok") return "ok";
  return state.status === "unreachable"
    ? { state: state.status, cause: state.cause }
    : { state: state.status };
}
