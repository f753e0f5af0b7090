import type { LoaderFunctionArgs } from "@remix-run/node";
import { env } from "~/env.server";
import { leadsHealth } from "~/leads/leads.server";
import { secureResponse } from "~/security.server";
import { healthAnswer } from "~/server/health.server";
import { isDraining } from "~/server/http-server.server";

/**
 * 200 `{"status":"ok"}` while the site serves pages, 503 `{"status":"draining"}` once SIGTERM
 * arrived (the load balancer should stop sending here); the store's state and counts only for
 * `Authorization: Bearer <HEALTH_TOKEN>`.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const details = await leadsHealth();
  const { status, body } = healthAnswer({
    draining: isDraining(),
    authorization: request.headers.get("Authorization"),
    token: env.HEALTH_TOKEN,
    details: () => ({ uptime: Math.round(process.uptime()), ...details }),
  });
  return secureResponse(body, {
    status,
    headers: { "Content-Type": "application/json", "Cache-Control": "no-store" },
  });
}
