/**
 * Checks a request's target and `Host` before the app sees them, making the one URL the app reads
 * or answering 400 (414 for a target too long), and answers what Node's parser refuses.
 *
 * Why: docs/decisions/015-hostile-requests.md, docs/decisions/026-routes-known-up-front.md.
 */
import { type IncomingMessage, type ServerResponse, STATUS_CODES } from "node:http";
import { isIP, type Socket } from "node:net";
import { CACHE_CONTROL } from "~/http/cache-control";
import { loggedTarget } from "./request-log";
import { ALLOWED_METHODS, answerPlain, securityHeaders } from "./responses";

/**
 * The longest request target the server reads (path and query, or the whole absolute form): no
 * page, data request or campaign link of the site comes near it, and what the router does with
 * a target grows with its length. Longer answers 414.
 */
export const MAX_TARGET_LENGTH = 4_096;

/**
 * The most bytes of request line and headers Node's parser reads (its default, set here so that
 * `NODE_OPTIONS=--max-http-header-size` cannot raise it); past it the server answers 431.
 */
export const MAX_HEAD_BYTES = 16 * 1024;

/**
 * The one URL the app sees, made from trusted parts only (the request handler builds it from
 * `X-Forwarded-Proto`, `Host` and the target, which this leaves canonical):
 * - the target's path and query: the origin form (`/path?query`) as it is; the absolute form
 *   (`GET http://host/path HTTP/1.1`, which a server must accept, RFC 9112 §3.2.2) as its path,
 *   its host standing for `Host`. A path whose percent escapes do not decode answers 400.
 * - a `Host` that is a host name or address with an optional port (`parseHost`), and one only;
 * - `X-Forwarded-Proto` (`http` or `https`) only from a trusted proxy (`trusted`).
 * `X-Forwarded-Host` is dropped: a host that holds a path (`www.example.com/privacy-policy#`)
 * would move the route, and a cache would store one page under another's key. `*`, the
 * authority form and other schemes answer 400, a target longer than MAX_TARGET_LENGTH 414.
 * True when it answered.
 */
export function settleRequestUrl(
  request: IncomingMessage,
  response: ServerResponse,
  trusted: boolean,
): boolean {
  if ((request.url ?? "").length > MAX_TARGET_LENGTH) {
    answerPlain(response, 414);
    return true;
  }
  const settled = requestTarget(request.url ?? "", hostHeaders(request.rawHeaders));
  if (settled === null) {
    answerPlain(response, 400);
    return true;
  }
  request.url = settled.path;
  request.headers.host = settled.host;
  delete request.headers["x-forwarded-host"];
  const proto = trusted ? forwardedProto(request.headers["x-forwarded-proto"]) : null;
  if (proto === null) delete request.headers["x-forwarded-proto"];
  else request.headers["x-forwarded-proto"] = proto;
  return false;
}

/** The path and the canonical host of a request target and its `Host` lines, or null when they make no single URL. */
export function requestTarget(
  target: string,
  hosts: readonly string[],
): { path: string; host: string } | null {
  if (hosts.length > 1) return null;
  const host = hosts[0] === undefined ? "localhost" : parseHost(hosts[0]);
  if (host === null) return null;
  const absolute = /^https?:\/\/([^/?#]*)(.*)$/i.exec(target);
  if (absolute) {
    const [, authority = "", rest = ""] = absolute;
    const targetHost = parseHost(authority);
    const path = rest.startsWith("/") ? rest : `/${rest}`;
    return targetHost !== null && decodablePath(path) ? { path, host: targetHost } : null;
  }
  return target.startsWith("/") && decodablePath(target) ? { path: target, host } : null;
}

/** The values of every `Host` line the client sent (Node keeps only the first in `headers`). */
function hostHeaders(rawHeaders: readonly string[]): string[] {
  return rawHeaders.filter(
    (_value, index) => index % 2 === 1 && rawHeaders[index - 1]?.toLowerCase() === "host",
  );
}

/** A path whose percent escapes decode (to UTF-8): what the router and the static files can read. */
function decodablePath(target: string): boolean {
  try {
    decodeURIComponent(target.split(/[?#]/, 1)[0] ?? "");
    return true;
  } catch {
    return false;
  }
}

const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;

/**
 * A `Host` value (or an absolute target's authority) as the server accepts it, in lower case:
 * a host name, an IPv4 address or a bracketed IPv6 address, with an optional port from 1 to
 * 65535. Null for anything else: a path, a query, a fragment, user info, spaces, commas,
 * percent escapes, an IPv6 zone, a bad or empty port, an empty host.
 */
export function parseHost(value: string): string | null {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+)(?::([0-9]{1,5}))?$/.exec(value);
  if (!match) return null;
  const [, name = "", port] = match;
  const host = name.toLowerCase();
  if (!validHostName(host)) return null;
  if (port === undefined) return host;
  const number = Number(port);
  return number >= 1 && number <= 65_535 ? `${host}:${number}` : null;
}

function validHostName(name: string): boolean {
  if (name.startsWith("[")) return isIP(name.slice(1, -1)) === 6;
  if (isIP(name) === 4) return true;
  const labels = (name.endsWith(".") ? name.slice(0, -1) : name).split(".");
  // A URL parser reads a name whose last label is a number as an IPv4 address (`1.2.3` is
  // 1.2.0.3, `0x7f.1` is 127.0.0.1): only a plain dotted quad may be one.
  const last = labels[labels.length - 1] ?? "";
  if (/^(?:[0-9]+|0x[0-9a-f]*)$/.test(last)) return false;
  return name.length <= 254 && labels.every((label) => LABEL.test(label));
}

/** `http` or `https` from the first entry of `X-Forwarded-Proto`, or null for anything else. */
function forwardedProto(value: string | string[] | undefined): "http" | "https" | null {
  const first = [value ?? ""].flat()[0]?.split(",")[0]?.trim().toLowerCase();
  return first === "http" || first === "https" ? first : null;
}

const CLIENT_ERRORS: Record<string, number> = {
  HPE_INVALID_METHOD: 405,
  HPE_HEADER_OVERFLOW: 431,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
};

/** Sockets already being answered for a request the server refuses: Node's parser reports an error again on every later packet. */
const refusing = new WeakSet<Socket>();

/**
 * What Node's parser refuses before a request exists (an unknown method such as TRACK, a
 * malformed header, a line too long) gets a readable answer with `Connection: close`, on a
 * fresh connection or a reused keep-alive one alike. Behind requests read earlier on the same
 * connection (pipelined, or still being answered), it waits until their answers are sent
 * whole: `current` is the response of the last request read on the socket, if it is not done.
 */
export function answerClientError(
  error: Error & { code?: string; rawPacket?: Buffer; bytesParsed?: number },
  socket: Socket,
  current: ServerResponse | undefined,
  log: (line: string) => void = console.log,
): void {
  // A client that reset its own connection is gone: nothing to answer, nothing to log.
  if (error.code === "ECONNRESET") {
    socket.destroy();
    return;
  }
  const status = CLIENT_ERRORS[error.code ?? ""] ?? 400;
  const [method = "-", target = "-"] = refusedRequestLine(error).split(" ");
  refuseAfterCurrent(
    socket,
    current,
    status,
    () => ({ method, target, note: error.code ?? "client error" }),
    log,
  );
}

/**
 * CONNECT (`server.on("connect")`: Node hands over the socket instead of a request) answers
 * 405 with `Allow` and `Connection: close`, after any answer still due on the connection.
 */
export function answerConnect(
  request: IncomingMessage,
  socket: Socket,
  current: ServerResponse | undefined,
  log: (line: string) => void = console.log,
): void {
  const started = performance.now();
  refuseAfterCurrent(
    socket,
    current,
    405,
    () => ({
      method: "CONNECT",
      target: request.url ?? "-",
      note: `${(performance.now() - started).toFixed(3)} ms`,
    }),
    log,
  );
}

/**
 * Answers `status` in plain text with `Connection: close` and logs one request line, once the
 * socket's `current` response is done; only a clean close when the connection can no longer
 * be written (the previous answer closed it).
 */
function refuseAfterCurrent(
  socket: Socket,
  current: ServerResponse | undefined,
  status: number,
  line: () => { method: string; target: string; note: string },
  log: (line: string) => void,
): void {
  if (refusing.has(socket)) return;
  refusing.add(socket);
  const answer = () => {
    if (socket.writable) {
      const headers = [
        ...securityHeaders,
        ["Content-Type", "text/plain; charset=utf-8"],
        ["Cache-Control", CACHE_CONTROL.never],
      ];
      if (status === 405) headers.push(["Allow", ALLOWED_METHODS.join(", ")]);
      const reason = STATUS_CODES[status] ?? "Bad Request";
      const body = `${reason}\n`;
      const lines = headers.map(([name, value]) => `${name}: ${value}\r\n`).join("");
      socket.end(
        `HTTP/1.1 ${status} ${reason}\r\n${lines}Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
      );
      const { method, target, note } = line();
      const name = method.replace(/[^A-Z-]/g, "?").slice(0, 20) || "-";
      log(`${name} ${loggedTarget(target)} ${status} ${body.length} - ${note}`);
    }
    socket.destroySoon();
  };
  if (current === undefined) answer();
  else current.once("close", answer);
}

/**
 * The request line of the request the parser refused, for the log: the line after the last
 * complete head before the point where parsing failed (a packet can hold pipelined requests
 * before it), or the packet's first line.
 */
function refusedRequestLine({
  rawPacket,
  bytesParsed,
}: {
  rawPacket?: Buffer;
  bytesParsed?: number;
}): string {
  const packet = rawPacket?.toString("latin1") ?? "";
  const parsed = packet.slice(0, bytesParsed ?? packet.length);
  const headEnd = parsed.lastIndexOf("\r\n\r\n");
  const start = headEnd === -1 ? 0 : headEnd + 4;
  return packet.slice(start).split("\r\n")[0] ?? "";
}
