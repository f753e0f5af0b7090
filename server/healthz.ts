/**
 * The `/healthz` answer: up or draining for everyone, the store's and the database's state for
 * HEALTH_TOKEN.
 *
 * Why the details need a token: docs/decisions/014-private-health-details.md.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Database, DatabaseState } from "~/db/database.server";
import { CACHE_CONTROL } from "~/http/cache-control";
import type { LeadService } from "~/leads/lead-service.server";
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
  /** The render-once cache's pages kept and rendered (~/shared-documents). */
  sharedDocuments: () => { entries: number; rendered: number };
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
        sharedDocuments: options.sharedDocuments(),
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
