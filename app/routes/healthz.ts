import { secureResponse } from "~/security.server";
import { isDraining } from "~/server/http-server.server";

export function loader() {
  // Once SIGTERM arrived the load balancer should stop sending here: 503 at once.
  const status = isDraining() ? "draining" : "ok";
  return secureResponse(JSON.stringify({ status, uptime: Math.round(process.uptime()) }), {
    status: status === "ok" ? 200 : 503,
    headers: { "Content-Type": "application/json", "Cache-Control": "no-store" },
  });
}
