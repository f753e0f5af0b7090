/**
 * What every response gets whoever writes it (security headers, `Connection: close` when needed),
 * and the server's own plain answers.
 */
import { type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse, STATUS_CODES } from "node:http";
import { CACHE_CONTROL, redirectCacheControl } from "~/http/cache-control";
import { applySecurityHeaders } from "~/http/security.server";

export const ALLOWED_METHODS = ["GET", "HEAD", "POST"] as const;

/** The headers every response carries (the resource policy: a document sets its own), made once. */
export const securityHeaders: readonly [string, string][] = (() => {
  const headers = new Headers();
  applySecurityHeaders(headers);
  return [...headers];
})();

/**
 * Runs `fill` at the last moment a response can still change: every path to the wire goes
 * through `writeHead` (an implicit header calls it too), after Express, compression and Remix
 * set theirs. The idiom of the `on-headers` module compression and morgan use.
 */
function beforeHeaders(
  response: ServerResponse,
  fill: (status: number, passed: OutgoingHttpHeaders | undefined) => void,
) {
  const writeHead = response.writeHead;
  response.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    fill(
      typeof args[0] === "number" ? args[0] : this.statusCode,
      args.find((arg): arg is OutgoingHttpHeaders => typeof arg === "object" && arg !== null),
    );
    return writeHead.apply(this, args as Parameters<ServerResponse["writeHead"]>);
  } as ServerResponse["writeHead"];
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * For every response, whoever writes it: the security headers it lacks, a redirect's
 * Cache-Control (`redirectCacheControl`: private with a query; a redirect that chose
 * `no-store` itself keeps it), and `Connection: close` when the request body was not read to its end (413, an early 400, a 405: the rest
 * of the body would otherwise be read as the next request) or the server is draining.
 */
export function guardResponse(request: IncomingMessage, response: ServerResponse, draining: () => boolean) {
  beforeHeaders(response, (status, passed) => {
    const given = new Set(Object.keys(passed ?? {}).map((name) => name.toLowerCase()));
    for (const [name, value] of securityHeaders) {
      if (!response.hasHeader(name) && !given.has(name)) response.setHeader(name, value);
    }
    if (REDIRECTS.has(status) && !given.has("cache-control")) {
      const chosen = String(response.getHeader("cache-control") ?? "");
      const wanted = redirectCacheControl(request.url ?? "", String(response.getHeader("location") ?? ""));
      if (!/no-store/.test(chosen) && (chosen === "" || wanted === CACHE_CONTROL.personal)) {
        response.setHeader("Cache-Control", wanted);
      }
    }
    if (draining()) response.shouldKeepAlive = false;
    if (bodyUnread(request)) {
      response.shouldKeepAlive = false;
      lingerOnClose(request);
    }
  });
}

/** How long a connection answered early keeps reading what its client still sends. */
const LINGER_MS = 2_000;

/**
 * A lingering close (nginx's `lingering_close`) after an answer sent before the request body
 * was read: Node would close the socket as soon as the answer is out, and the kernel answers
 * body bytes still arriving with a reset that can destroy the answer before the client reads
 * it (a 413 becomes EPIPE). Instead the server ends its side, reads and drops the rest of the
 * body for up to LINGER_MS, then closes.
 */
function lingerOnClose(request: IncomingMessage): void {
  const { socket } = request;
  socket.destroySoon = () => {
    if (socket.writable) socket.end();
    // Past the parser: nothing more is read as a request, only dropped.
    socket.removeAllListeners("data");
    socket.on("data", () => {});
    socket.resume();
    const timer = setTimeout(() => socket.destroy(), LINGER_MS).unref();
    socket.once("close", () => clearTimeout(timer));
    socket.once("end", () => socket.destroy());
  };
}

/** A request that announced a body and has not been read to its end yet. */
function bodyUnread(request: IncomingMessage): boolean {
  if (request.complete) return false;
  const length = request.headers["content-length"];
  return request.headers["transfer-encoding"] !== undefined || (length !== undefined && Number(length) !== 0);
}

/** A short plain-text answer from the server itself (405, 400, 500, a 301): never stored, unless `headers` says otherwise. */
export function answerPlain(response: ServerResponse, status: number, headers: Record<string, string> = {}) {
  const body = `${STATUS_CODES[status]}\n`;
  response.setHeader("Cache-Control", CACHE_CONTROL.never);
  // setHeader, not writeHead(status, headers): the request log reads them back with getHeader.
  for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
  response.setHeader("Content-Type", "text/plain; charset=utf-8");
  response.setHeader("Content-Length", Buffer.byteLength(body));
  response.writeHead(status);
  response.end(body);
}

/** GET, HEAD and POST only: anything else answers 405 with `Allow` on every path. True when it answered. */
export function refuseMethod(request: IncomingMessage, response: ServerResponse): boolean {
  if ((ALLOWED_METHODS as readonly string[]).includes(request.method ?? "")) return false;
  answerPlain(response, 405, { Allow: ALLOWED_METHODS.join(", ") });
  return true;
}
