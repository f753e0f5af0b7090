import { leadsHealth } from "~/leads/leads.server";
import { secureResponse } from "~/security.server";

/** 200 while the site serves pages: a broken lead store or a delivery backlog shows in the body. */
export function loader() {
  const body = { status: "ok", uptime: Math.round(process.uptime()), ...leadsHealth() };
  return secureResponse(JSON.stringify(body), {
    headers: { "Content-Type": "application/json", "Cache-Control": "no-store" },
  });
}
