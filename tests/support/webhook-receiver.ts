// A real webhook receiver on 127.0.0.1: it records every request as it arrived and, given the
// secret, checks each with the standardwebhooks package's own `Webhook#verify`, as a CRM would.
// Told how to answer the next requests: a status (500 then 200, 410, a redirect, 429 with
// Retry-After), `hang` (never answers; `unanswered` counts those still open), or `close` (drops
// the connection unanswered).
import { once } from "node:events";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export type ReceiverAnswer = { status: number; headers?: Record<string, string> } | "hang" | "close";

export interface ReceivedRequest {
  method: string;
  path: string;
  /** Header names in lower case, as node gives them. */
  headers: Record<string, string>;
  body: string;
  /** The request's size on the wire: request line, headers and body, in bytes. */
  bytes: number;
  /** When its body had arrived (ms since the epoch). */
  receivedAt: number;
  /** With a secret: whether `Webhook#verify` took it, and if not, why. */
  verified?: boolean;
  verifyError?: string;
}

export interface WebhookReceiver {
  /** Where to post: `http://127.0.0.1:PORT/hooks/leads`. */
  url: string;
  /** Every request received, in order. */
  requests: ReceivedRequest[];
  /** How to answer the next requests, one each; after them, 200. */
  answer(...answers: ReceiverAnswer[]): void;
  /** How many `hang` requests still wait for their answer: their sender has not given up on them. */
  unanswered(): number;
  close(): Promise<void>;
}

/** What the request head weighed: the line and each header as sent, and the blank line. */
function headBytes(request: IncomingMessage): number {
  let head = `${request.method} ${request.url} HTTP/${request.httpVersion}\r\n`;
  for (let index = 0; index < request.rawHeaders.length; index += 2) {
    head += `${request.rawHeaders[index]}: ${request.rawHeaders[index + 1]}\r\n`;
  }
  return Buffer.byteLength(`${head}\r\n`);
}

/**
 * Starts the receiver on 127.0.0.1 (`port`: a given one, e.g. one a server was refused at before;
 * otherwise any free one).
 */
export async function startWebhookReceiver(
  options: { secret?: string; port?: number } = {},
): Promise<WebhookReceiver> {
  const verifier = options.secret ? new Webhook(options.secret) : undefined;
  const requests: ReceivedRequest[] = [];
  const answers: ReceiverAnswer[] = [];
  let hanging = 0;
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const headers = Object.fromEntries(
      Object.entries(request.headers).map(([name, value]) => [name, String(value)]),
    );
    const received: ReceivedRequest = {
      method: request.method ?? "",
      path: request.url ?? "",
      headers,
      body,
      bytes: headBytes(request) + Buffer.byteLength(body),
      receivedAt: Date.now(),
    };
    if (verifier) {
      try {
        verifier.verify(body, headers);
        received.verified = true;
      } catch (error) {
        received.verified = false;
        received.verifyError = error instanceof Error ? error.message : String(error);
      }
    }
    requests.push(received);
    const answer = answers.shift() ?? { status: 200 };
    if (answer === "hang") {
      hanging += 1;
      response.once("close", () => {
        hanging -= 1;
      });
      return;
    }
    if (answer === "close") {
      request.socket.destroy();
      return;
    }
    response.writeHead(answer.status, { "content-type": "text/plain", ...answer.headers });
    // A body a sender must never repeat anywhere: the tests look for it in what it returns.
    response.end(`receiver body ${answer.status}: do not log me`);
  });
  server.listen(options.port ?? 0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/leads`,
    requests,
    answer: (...next) => {
      answers.push(...next);
    },
    unanswered: () => hanging,
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
}

/** A loopback port nothing listens on: a connection to it is refused. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, "close");
  return port;
}
