import { once } from "node:events";
import { createServer, request as httpRequest, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

interface Stored {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface CachingProxy {
  url: string;
  /** Every request the proxy passed to the origin, as `METHOD target`. */
  originRequests: string[];
  /** The cache keys it holds a copy for. */
  stored: () => string[];
  stop: () => Promise<void>;
}

/**
 * A shared cache as docs/deploying.md's CDN section assumes the least of: it keys by URL (and by the
 * coding, as `Vary: Accept-Encoding` asks), stores a GET's 200 only when `Cache-Control` makes
 * it public with an `s-maxage` and says neither `private` nor `no-store`, serves what it stored
 * without asking the origin, and forwards no cookies. `key` turns a request target and its
 * `Host` into the URL part of the cache key (default: the target itself).
 */
export async function startCachingProxy(
  origin: string,
  key: (target: string, host: string) => string = (target) => target,
): Promise<CachingProxy> {
  const store = new Map<string, Stored>();
  const originRequests: string[] = [];
  const upstream = new URL(origin);
  const server = createServer((request, response) => {
    const target = request.url ?? "/";
    const cacheKey = `${key(target, request.headers.host ?? "")} ${request.headers["accept-encoding"] ?? ""}`;
    const hit = request.method === "GET" ? store.get(cacheKey) : undefined;
    if (hit) {
      response.writeHead(hit.status, { ...hit.headers, "x-cache": "HIT" });
      response.end(hit.body);
      return;
    }
    // The Host as the visitor sent it, as a CDN passes the site's public name on.
    const headers: IncomingHttpHeaders = { ...request.headers };
    delete headers.cookie;
    originRequests.push(`${request.method} ${target}`);
    const forward = httpRequest(
      { host: upstream.hostname, port: upstream.port, path: target, method: request.method, headers },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on("data", (chunk: Buffer) => chunks.push(chunk));
        answer.on("end", () => {
          const kept = { ...answer.headers };
          for (const name of ["connection", "keep-alive", "transfer-encoding"]) delete kept[name];
          const stored = { status: answer.statusCode ?? 502, headers: kept, body: Buffer.concat(chunks) };
          const cacheControl = String(answer.headers["cache-control"] ?? "");
          if (
            request.method === "GET" &&
            stored.status === 200 &&
            /\bpublic\b/.test(cacheControl) &&
            /\bs-maxage=[1-9]/.test(cacheControl) &&
            !/\b(private|no-store)\b/.test(cacheControl)
          ) {
            store.set(cacheKey, stored);
          }
          response.writeHead(stored.status, { ...stored.headers, "x-cache": "MISS" });
          response.end(stored.body);
        });
      },
    );
    forward.on("error", (error) => response.writeHead(502).end(String(error)));
    request.pipe(forward);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    originRequests,
    stored: () => [...store.keys()],
    stop: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
}
