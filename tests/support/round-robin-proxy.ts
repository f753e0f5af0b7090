import { once } from "node:events";
import { createServer, request as httpRequest, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface RoundRobinProxy {
  url: string;
  /** Which upstream answered each request, in order (its URL). */
  answeredBy: string[];
  /** Takes an upstream out of the rotation, as a platform does with a replica it stops. */
  remove: (upstream: string) => void;
  /** Puts an upstream into the rotation, as a platform does with a replica it (re)started. */
  add: (upstream: string) => void;
  stop: () => Promise<void>;
}

/**
 * A load balancer as docs/deploying.md's nginx is one: each request goes to the next upstream in turn,
 * with the address it came from appended to `X-Forwarded-For` (so the replicas run with
 * `TRUST_PROXY=127.0.0.1`, and a client is the address it connects from: see `sendFrom`). An
 * upstream that refuses the connection (a replica killed) is skipped: the request never reached
 * it, so passing it on is safe whatever its method.
 */
export async function startRoundRobinProxy(upstreams: string[]): Promise<RoundRobinProxy> {
  const rotation = [...upstreams];
  const answeredBy: string[] = [];
  let next = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks);
      const forwarded = request.headers["x-forwarded-for"];
      const client = request.socket.remoteAddress ?? "";
      const headers: IncomingHttpHeaders = {
        ...request.headers,
        "x-forwarded-for": forwarded ? `${forwarded}, ${client}` : client,
        connection: "close",
      };
      const forward = (tries: number) => {
        if (rotation.length === 0 || tries === 0) {
          response.writeHead(502).end("no upstream answered");
          return;
        }
        const upstream = rotation[next++ % rotation.length] as string;
        const target = new URL(upstream);
        const outgoing = httpRequest(
          {
            host: target.hostname,
            port: target.port,
            path: request.url,
            method: request.method,
            headers,
          },
          (answer) => {
            answeredBy.push(upstream);
            const kept = { ...answer.headers };
            for (const name of ["connection", "keep-alive", "transfer-encoding"]) delete kept[name];
            response.writeHead(answer.statusCode ?? 502, kept);
            answer.pipe(response);
          },
        );
        outgoing.on("error", (error: NodeJS.ErrnoException) => {
          if (error.code === "ECONNREFUSED") forward(tries - 1);
          else if (!response.headersSent) response.writeHead(502).end(String(error));
          else response.destroy();
        });
        outgoing.end(body);
      };
      forward(rotation.length);
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    answeredBy,
    remove(upstream) {
      const index = rotation.indexOf(upstream);
      if (index !== -1) rotation.splice(index, 1);
    },
    add(upstream) {
      if (!rotation.includes(upstream)) rotation.push(upstream);
    },
    stop: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
}

export interface ClientResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/**
 * One request from the loopback address `from` (any of 127.0.0.0/8 on Linux), so the proxy
 * sees, and passes on, a client address of the test's choosing over a real connection.
 */
export function sendFrom(
  from: string,
  url: string,
  options: { method?: string; body?: URLSearchParams; headers?: Record<string, string> } = {},
): Promise<ClientResponse> {
  const body = options.body?.toString();
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      {
        method: options.method ?? (body === undefined ? "GET" : "POST"),
        localAddress: from,
        headers: {
          ...(body === undefined
            ? {}
            : {
                "Content-Type": "application/x-www-form-urlencoded",
                "Content-Length": String(Buffer.byteLength(body)),
              }),
          ...options.headers,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            text: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}
