import { subscribe } from "node:diagnostics_channel";
import {
  Server as HttpServer,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type Server,
  type ServerResponse,
} from "node:http";
import type { Socket } from "node:net";
import { applySecurityHeaders } from "~/security.server";
import { loggedUrl } from "./logged-url.server";

/**
 * The app's hold on the HTTP server `remix-serve` runs, without a server entry of our own.
 *
 * How it attaches: `remix-serve` imports the server build (and so this module) before it calls
 * `app.listen`, and gives the app no handle on the server. Node publishes every request on the
 * `http.server.request.start` diagnostics channel (Node 20, 22 and 24) with its server, socket
 * and response, synchronously, before the server emits `request` to Express, and every accepted
 * connection on `net.server.socket` (its `socket.server` is the http.Server). On a server's
 * first connection (or, failing that, its first request) this module puts its own dispatcher in
 * front of the server's `request` listeners, so request hooks answer before Express (and its
 * compression, static files, request log and Remix handler) sees anything, and answers the
 * requests Node's parser refuses (`clientError`).
 *
 * What it does for every response, whoever writes it (Express static, Remix, a hook):
 * - adds the security headers a response lacks (resource policy: a document sets its own);
 * - answers with `Connection: close` when the request body was not read to the end (413, an
 *   early 400, a 405): Node then ends the connection once the answer is written;
 * - after SIGTERM (see `drainOnSignal`): `Connection: close` on every response.
 */

/** Answers a request before Express sees it; returns true when it answered. */
export type RequestHook = (request: IncomingMessage, response: ServerResponse) => boolean;

export const ALLOWED_METHODS = ["GET", "HEAD", "POST"] as const;

interface HttpServerState {
  servers: Set<Server>;
  responses: Set<ServerResponse>;
  /** Tried in order; by name, so a module the dev server imports again replaces its own hook. */
  hooks: Map<string, RequestHook>;
  draining: boolean;
}

// One state per process: the dev server re-imports the build on every change, and a second
// subscriber would dispatch every request twice.
const STATE = Symbol.for("agency-site.http-server");
const globals = globalThis as typeof globalThis & { [STATE]?: HttpServerState };

function state(): HttpServerState {
  let current = globals[STATE];
  if (!current) {
    current = { servers: new Set(), responses: new Set(), hooks: new Map(), draining: false };
    globals[STATE] = current;
    // The first connection of a server comes before its first request is parsed: the earliest
    // moment to answer requests Node's parser refuses (TRACK) and to put the hooks in front.
    subscribe("net.server.socket", (message) => {
      const { server } = (message as { socket: Socket & { server?: unknown } }).socket;
      if (server instanceof HttpServer) adopt(server, state());
    });
    subscribe("http.server.request.start", (message) => onRequestStart(message as RequestStart));
  }
  return current;
}

interface RequestStart {
  request: IncomingMessage;
  response: ServerResponse;
  socket: Socket;
  server: Server;
}

/** Starts watching the process's HTTP servers; the method guard is the first hook. */
export function attachToHttpServer(): void {
  const current = state();
  if (!current.hooks.has("methods"))
    current.hooks = new Map([["methods", refuseUnknownMethods], ...current.hooks]);
}

/** Lets another module answer some requests itself (in registration order, after the method guard). */
export function addRequestHook(name: string, hook: RequestHook): void {
  state().hooks.set(name, hook);
}

/** True once SIGTERM arrived: health checks answer 503 so the load balancer stops sending. */
export function isDraining(): boolean {
  return state().draining;
}

function adopt(server: Server, current: HttpServerState): void {
  if (current.servers.has(server)) return;
  current.servers.add(server);
  takeOverDispatch(server, current);
  server.on("clientError", answerClientError);
}

function onRequestStart({ request, response, server }: RequestStart): void {
  const current = state();
  adopt(server, current);
  current.responses.add(response);
  response.once("close", () => current.responses.delete(response));
  response.once("finish", () => {
    if (current.draining) setImmediate(() => server.closeIdleConnections());
  });
  guardHeaders(request, response, current);
}

function takeOverDispatch(server: Server, current: HttpServerState): void {
  const listeners = server.listeners("request") as ((req: IncomingMessage, res: ServerResponse) => void)[];
  server.removeAllListeners("request");
  server.on("request", (request: IncomingMessage, response: ServerResponse) => {
    const started = performance.now();
    for (const hook of current.hooks.values()) {
      if (hook(request, response)) {
        logAnswered(request, response, started);
        return;
      }
    }
    for (const listener of listeners) listener.call(server, request, response);
  });
}

/**
 * The line remix-serve's request log (morgan "tiny") writes, for the requests a hook answered
 * before Express saw them, so none is missing from the log; the query shows names, not values.
 */
function logAnswered(request: IncomingMessage, response: ServerResponse, started: number): void {
  const milliseconds = (performance.now() - started).toFixed(3);
  const url = loggedUrl(request.url ?? "");
  const length = response.getHeader("Content-Length") ?? "-";
  console.log(`${request.method} ${url} ${response.statusCode} ${length} - ${milliseconds} ms`);
}

/** The headers every response carries (the resource policy: a document sets its own), made once. */
const securityHeaders: [string, string][] = (() => {
  const headers = new Headers();
  applySecurityHeaders(headers);
  return [...headers];
})();

function guardHeaders(request: IncomingMessage, response: ServerResponse, current: HttpServerState): void {
  const writeHead = response.writeHead;
  // Every path to the wire goes through writeHead (an implicit header calls it too), so this is
  // the last moment the response can still be changed, after Express and Remix set theirs.
  response.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    const passed = args.find((arg): arg is OutgoingHttpHeaders => typeof arg === "object" && arg !== null);
    for (const [name, value] of securityHeaders) {
      if (!this.hasHeader(name) && !hasHeaderIn(passed, name)) this.setHeader(name, value);
    }
    // An answer before the body was read ends the connection: the rest of the body would
    // otherwise be read as the next request, or the socket reset under a pooled client.
    if (bodyUnread(request) || current.draining) this.shouldKeepAlive = false;
    return writeHead.apply(this, args as Parameters<ServerResponse["writeHead"]>);
  } as ServerResponse["writeHead"];
}

/** A request that announced a body and has not been read to its end yet. */
function bodyUnread(request: IncomingMessage): boolean {
  if (request.complete) return false;
  const length = request.headers["content-length"];
  return request.headers["transfer-encoding"] !== undefined || (length !== undefined && Number(length) !== 0);
}

function hasHeaderIn(headers: OutgoingHttpHeaders | undefined, name: string): boolean {
  return headers !== undefined && Object.keys(headers).some((key) => key.toLowerCase() === name);
}

/**
 * Node's parser refuses methods it does not know (TRACK) before any request exists. With a
 * `clientError` listener Node leaves the answer to us: 405 for those, Node's own answers for
 * the rest (408, 431, 400), and the connection closes either way.
 */
function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (socket.writable && socket.bytesWritten === 0) {
    const status =
      error.code === "HPE_INVALID_METHOD"
        ? "405 Method Not Allowed"
        : error.code === "HPE_HEADER_OVERFLOW"
          ? "431 Request Header Fields Too Large"
          : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
            ? "408 Request Timeout"
            : "400 Bad Request";
    const headers = new Headers();
    applySecurityHeaders(headers);
    if (status.startsWith("405")) headers.set("Allow", ALLOWED_METHODS.join(", "));
    const lines = [...headers].map(([name, value]) => `${name}: ${value}\r\n`).join("");
    socket.end(`HTTP/1.1 ${status}\r\n${lines}Content-Length: 0\r\nConnection: close\r\n\r\n`);
  }
  socket.destroySoon();
}

function refuseUnknownMethods(request: IncomingMessage, response: ServerResponse): boolean {
  const method = request.method ?? "";
  if ((ALLOWED_METHODS as readonly string[]).includes(method)) return false;
  const body = "Method Not Allowed\n";
  // setHeader, not writeHead(status, headers): the request log reads them back with getHeader.
  response.setHeader("Allow", ALLOWED_METHODS.join(", "));
  response.setHeader("Content-Type", "text/plain; charset=utf-8");
  response.setHeader("Content-Length", Buffer.byteLength(body));
  response.setHeader("Cache-Control", "no-store");
  response.writeHead(405);
  response.end(body);
  return true;
}

/**
 * On SIGTERM (remix-serve closes the listening socket on the same signal): health checks turn
 * 503, every further response says `Connection: close`, idle keep-alive connections close,
 * requests in flight finish, `onDrain` stops the app's own background work (the process lives
 * on until the promise it returns settles: a lead send in flight gets its outcome written),
 * and whatever the clients do the process exits 0 at the deadline.
 */
export function drainOnSignal(options: {
  deadlineMs: number;
  onDrain?: () => void | Promise<void>;
  signals?: NodeJS.Signals[];
}): void {
  const current = state();
  for (const signal of options.signals ?? ["SIGTERM", "SIGINT"]) {
    process.once(signal, () => {
      if (current.draining) return;
      current.draining = true;
      for (const server of current.servers) server.closeIdleConnections();
      // Pending work (a send, a write) keeps the event loop, so the process exits once it is done.
      Promise.resolve(options.onDrain?.()).catch((error: unknown) => {
        console.error(`shutdown: ${error instanceof Error ? error.message : String(error)}`);
      });
      const deadline = setTimeout(() => {
        console.error(
          `shutdown: still busy after ${options.deadlineMs / 1000} s (${current.responses.size} unanswered request(s), or a client that never finished its request); exiting`,
        );
        process.exit(0);
      }, options.deadlineMs);
      deadline.unref();
    });
  }
}
