import { secureResponse } from "~/http/security.server";
import { leadsHealth } from "~/leads/leads.server";
import { isDraining } from "~/server/http-server.server";

/** 200 while the site serves pages (a broken lead store or a delivery backlog shows in the body); 503 once draining. */
export function loader() {
  // Once SIGTERM arrived the load balancer should stop sending here: 503 at once.
  const status = isDraining() ? "draining" : "ok";
  const body = { status, uptime: Math.round(process.uptime()), ...leadsHealth() };
  return secureResponse(JSON.stringify(body), {
    status: status === "ok" ? 200 : 503,
    headers: { "Content-Type": "application/json", "Cache-Control": "no-store" },
  });
}
