/** The Remix request handler for Express, its request's URL made from what the server settled. */
// Not from the package's index, which exports only its request handler: its headers and
// response helpers are used as they are, only the request's URL is made here.
import { createRemixHeaders, sendRemixResponse } from "@remix-run/express/dist/server.js";
import {
  type AppLoadContext,
  createReadableStreamFromReadable,
  createRequestHandler as createRemixRequestHandler,
  type ServerBuild,
} from "@remix-run/node";
import type { Request as ExpressRequest, Response as ExpressResponse, RequestHandler } from "express";

/**
 * The Fetch request the app gets for an Express request: @remix-run/express's, but for its URL,
 * made of the protocol (`X-Forwarded-Proto` only from a trusted proxy) and the `Host` the server
 * has settled (./request-line), whole. The adapter takes the port from after the first `:` of
 * `Host`, which for an IPv6 literal (`[::1]:3000`) is inside the brackets: the app would see
 * `http://[::1]/` and take no page of `http://[::1]:3000` for its own.
 */
export function createRemixRequest(req: ExpressRequest, res: ExpressResponse): Request {
  const url = new URL(`${req.protocol}://${req.headers.host ?? "localhost"}${req.originalUrl}`);
  // Loaders and actions are aborted when the client goes before its answer was written whole.
  let controller: AbortController | null = new AbortController();
  res.on("finish", () => {
    controller = null;
  });
  res.on("close", () => controller?.abort());
  const init: RequestInit & { duplex?: "half" } = {
    method: req.method,
    headers: createRemixHeaders(req.headers),
    signal: controller.signal,
  };
  if (req.method !== "GET" && req.method !== "HEAD") {
    init.body = createReadableStreamFromReadable(req);
    init.duplex = "half";
  }
  return new Request(url.href, init);
}

/** The Express handler that answers a request with the Remix app (`@remix-run/express`'s, on `createRemixRequest`). */
export function createRequestHandler(options: {
  build: ServerBuild | (() => Promise<ServerBuild>);
  mode: string;
  getLoadContext: (req: ExpressRequest) => AppLoadContext;
}): RequestHandler {
  const handle = createRemixRequestHandler(options.build, options.mode);
  return async (req, res, next) => {
    try {
      const response = await handle(createRemixRequest(req, res), options.getLoadContext(req));
      await sendRemixResponse(res, response);
    } catch (error) {
      next(error);
    }
  };
}
