import { secureResponse } from "~/security.server";

export function loader() {
  return secureResponse(JSON.stringify({ status: "ok", uptime: Math.round(process.uptime()) }), {
    headers: { "Content-Type": "application/json", "Cache-Control": "no-store" },
  });
}
