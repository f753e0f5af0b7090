/** The request log: one line per response, with the query's parameter names only. */
import type { IncomingMessage, ServerResponse } from "node:http";

/** Express sets `originalUrl` and rewrites `url` inside a mounted router (`/admin/` reads `/` there). */
type Request = IncomingMessage & { originalUrl?: string };

/**
 * One line per request, in the shape of morgan's "tiny" format remix-serve used
 * (`GET /privacy-policy 200 5123 - 3.104 ms`), written when the response is done (or the
 * connection dropped: status `-` when nothing was sent). A query shows its parameter names
 * only (`/?utm_source=&gclid=`): their values can be personal or secret.
 */
export function logRequest(request: Request, response: ServerResponse, write = console.log): void {
  const started = performance.now();
  response.once("close", () => {
    const status = response.headersSent ? response.statusCode : "-";
    const length = response.getHeader("Content-Length") ?? "-";
    const ms = (performance.now() - started).toFixed(3);
    write(
      `${request.method} ${loggedTarget(request.originalUrl ?? request.url ?? "")} ${status} ${length} - ${ms} ms`,
    );
  });
}

/** A request target as it may be logged: printable ASCII, the query reduced to its parameter names. */
export function loggedTarget(target: string): string {
  const [path = "", ...query] = target.split("?");
  const names = query
    .join("?")
    .split("&")
    .filter((pair) => pair !== "")
    .map((pair) => `${pair.split("=")[0]}=`);
  const logged = query.length > 0 ? `${path}?${names.join("&")}` : path;
  return logged.replace(/[^\x21-\x7e]/g, "?").slice(0, 2048);
}
