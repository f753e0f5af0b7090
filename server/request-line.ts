import { type IncomingMessage, type ServerResponse, STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import { CACHE_CONTROL } from "~/http/cache-control";
import { loggedTarget } from "./request-log";
import { ALLOWED_METHODS, answerPlain, securityHeaders } from "./responses";

/**
 * Request targets (RFC 9112 §3.2): the origin form (`/path?query`) goes on as it is; the
 * absolute form (`GET http://host/path HTTP/1.1`, which a server must accept) is served as its
 * path, with the target's host in place of the Host header (§3.2.2); anything else (`*`, the
 * authority form, a target or Host that makes no URL) answers 400. True when it answered.
 */
export function refuseOddTarget(request: IncomingMessage, response: ServerResponse): boolean {
  const target = request.url ?? "";
  if (target.startsWith("/")) {
    if (isUrl(`http://${request.headers.host ?? "localhost"}${target}`)) return false;
  } else if (/^https?:\/\//i.test(target) && isUrl(target)) {
    const url = new URL(target);
    request.url = `${url.pathname}${url.search}`;
    request.headers.host = url.host;
    return false;
  }
  answerPlain(response, 400);
  return true;
}

function isUrl(text: string): boolean {
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}

const CLIENT_ERRORS: Record<string, number> = {
  HPE_INVALID_METHOD: 405,
  HPE_HEADER_OVERFLOW: 431,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
};

/**
 * What Node's parser refuses before a request exists (an unknown method such as TRACK, a
 * malformed header, a line too long) gets a readable answer with `Connection: close`, on a
 * fresh connection or a reused keep-alive one alike: as Node itself would, unless part of a
 * response is already on the socket (a pipelined request), where an answer would corrupt it.
 * `current` is the response the socket is busy with, if any.
 */
export function answerClientError(
  error: Error & { code?: string; rawPacket?: Buffer },
  socket: Socket,
  current: ServerResponse | undefined,
  log: (line: string) => void = console.log,
): void {
  // A client that reset its own connection is gone: nothing to answer, nothing to log.
  if (error.code !== "ECONNRESET" && socket.writable && !current?.headersSent) {
    const status = CLIENT_ERRORS[error.code ?? ""] ?? 400;
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
    // The request line as the parser saw it, for the log.
    const [method = "-", target = "-"] = (error.rawPacket?.toString("latin1").split("\r\n")[0] ?? "").split(
      " ",
    );
    const name = method.replace(/[^A-Z-]/g, "?").slice(0, 20) || "-";
    log(`${name} ${loggedTarget(target)} ${status} ${body.length} - ${error.code ?? "client error"}`);
  }
  socket.destroySoon();
}
