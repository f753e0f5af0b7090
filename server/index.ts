/**
 * The site's HTTP server: remix-serve's own stack (Express, compression, static files, a request
 * log, @remix-run/express) made explicit, with the operations contract in front of it. Bundled
 * into build/server.js by scripts/build-commands.js; `npm start` and the image run it.
 *
 * Why the site owns its server: docs/decisions/009-own-http-server.md.
 */
import { watch } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { broadcastDevReady, installGlobals, type ServerBuild } from "@remix-run/node";
import compression from "compression";
import express, { type ErrorRequestHandler } from "express";
import type { EditorPreview } from "~/editor-preview/render.server";
import { env, siteUrlGiven, warnIfLeadWebhookUnencrypted, warnIfSiteUrlMissing } from "~/env.server";
import { pageRouteMatcher } from "~/http/canonical-path";
import { createClientResolver } from "~/http/client-address.server";
import { createAdmin } from "./admin";
import { createServices } from "./app-services";
import { redirectToCanonical } from "./canonical-redirect";
import { createDrain } from "./drain";
import { healthz } from "./healthz";
import { createRequestHandler } from "./remix-handler";
import { answerClientError, answerConnect, MAX_HEAD_BYTES, settleRequestUrl } from "./request-line";
import { logRequest } from "./request-log";
import { answerPlain, guardResponse, refuseMethod } from "./responses";
import { vitalsEndpoint } from "./vitals-endpoint";

installGlobals({ nativeFetch: true });
warnIfSiteUrlMissing();
warnIfLeadWebhookUnencrypted();

// build/server.js sits beside the Remix server build, build/index.js; public/ beside build/.
const buildDir = dirname(fileURLToPath(import.meta.url));
const root = dirname(buildDir);
const buildUrl = pathToFileURL(join(buildDir, "index.js")).href;
const importBuild = (version = "") => import(`${buildUrl}${version}`) as Promise<ServerBuild>;
let build = await importBuild();
// Which paths name a page, for the build being served (`npm run dev` imports new ones).
const pageMatchers = new WeakMap<ServerBuild, (path: string) => boolean>();
const isPage = (path: string): boolean => {
  const matcher = pageMatchers.get(build) ?? pageRouteMatcher(build.routes);
  pageMatchers.set(build, matcher);
  return matcher(path);
};

const { services, beaconMetrics, database, limitStore, start, stop } = createServices(env);
const clients = createClientResolver(env.TRUST_PROXY);
const clientOf = (request: IncomingMessage) =>
  clients.client({
    socketAddress: request.socket.remoteAddress,
    forwardedFor: request.headers["x-forwarded-for"],
  });
const vitals = vitalsEndpoint((request) => ({
  metrics: beaconMetrics,
  beaconLimits: services.beaconLimits,
  campaigns: services.campaigns,
  client: clientOf(request),
}));

const app = express();
app.disable("x-powered-by");
// Express (and so the request URL) reads X-Forwarded-Proto only from a trusted peer; the
// server has left it `http`, `https` or absent (./request-line).
app.set("trust proxy", clients.trusts);
app.use(compression());
// Hashed build files: `public, max-age=31536000, immutable`; the rest of public/: an hour.
app.use(
  build.publicPath,
  express.static(join(root, build.assetsBuildDirectory), { immutable: true, maxAge: "1y" }),
);
// Content images, named by their content hash (scripts/media/responsive-image.ts): kept a year too.
// Express 4's static files know no AVIF type: named here, or a photo's AVIF would go out as
// application/octet-stream, not as the image its page's <source type> names.
app.use(
  "/media",
  express.static(join(root, "public", "media"), {
    immutable: true,
    maxAge: "1y",
    setHeaders: (response, path) => {
      if (path.endsWith(".avif")) response.setHeader("Content-Type", "image/avif");
    },
  }),
);
app.use(express.static(join(root, "public"), { maxAge: "1h" }));
app.all("/healthz", (request, response, next) => void health(request, response).catch(next));
// The content editor (Decap CMS): its own page and policy, previews rendered by the app's build.
app.use(
  "/admin",
  createAdmin({
    env,
    dir: join(buildDir, "admin"),
    siteUrlGiven: siteUrlGiven(),
    limitStore,
    clientOf,
    stylesheets: () =>
      (build.routes.root?.module.links?.() ?? []).flatMap((link) =>
        "rel" in link && link.rel === "stylesheet" && typeof link.href === "string" ? [link.href] : [],
      ),
    // Exported by app/entry.server.tsx: the previews render with the build's own components.
    editorPreview: () => (build.entry.module as { editorPreview?: EditorPreview }).editorPreview,
  }),
);
app.all(
  "*",
  createRequestHandler({
    build: env.NODE_ENV === "development" ? async () => build : build,
    mode: env.NODE_ENV,
    getLoadContext: (request) => ({ ...services, client: clientOf(request) }),
  }),
);
const answerError: ErrorRequestHandler = (error: Error & { status?: unknown }, _request, response, _next) => {
  // What an Express layer refuses as the client's mistake (a 4xx `status`) is answered as such, without a stack.
  const status =
    typeof error.status === "number" && error.status >= 400 && error.status < 500 ? error.status : 500;
  if (status === 500) console.error(error);
  if (response.headersSent) response.destroy();
  else answerPlain(response, status);
};
app.use(answerError);

// The socket's current response, for answers to what the parser refuses on a reused connection.
const current = new WeakMap<Socket, ServerResponse>();
const server = createServer({ maxHeaderSize: MAX_HEAD_BYTES }, (request, response) => {
  current.set(request.socket, response);
  response.once("close", () => current.get(request.socket) === response && current.delete(request.socket));
  logRequest(request, response);
  drain.track(response);
  guardResponse(request, response, drain.draining);
  const trusted = clients.trusts(request.socket.remoteAddress ?? "", 0);
  if (refuseMethod(request, response) || settleRequestUrl(request, response, trusted)) return;
  // A page spelt otherwise (case, a trailing slash, `%2D`) is sent to its one path.
  if (redirectToCanonical(request, response, isPage)) return;
  // Shared documents the app has just served, and the field-metrics beacon, are answered here, in front of Express.
  if (services.fastPath.serve(request, response) || vitals(request, response)) return;
  app(request, response);
});
server.on("clientError", (error, socket: Socket) => answerClientError(error, socket, current.get(socket)));
server.on("connect", (request, socket: Socket) => answerConnect(request, socket, current.get(socket)));

const drain = createDrain({ server, deadlineMs: env.SHUTDOWN_DEADLINE * 1000, stop });
const health = healthz({
  draining: drain.draining,
  leads: services.leads,
  database,
  token: env.HEALTH_TOKEN,
  sharedDocuments: () => services.sharedDocuments.stats(),
});
for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, drain.begin);

start();
server.listen(env.PORT, env.HOST, () => {
  console.log(`server: listening on http://${env.HOST ?? "localhost"}:${env.PORT}`);
  if (env.NODE_ENV === "development") broadcastDevReady(build);
});

// `remix dev --manual`: a new app build is imported in place; the services stay as they are.
if (env.NODE_ENV === "development") {
  let pending: NodeJS.Timeout | undefined;
  watch(buildDir, (_event, file) => {
    if (file !== "index.js") return;
    clearTimeout(pending);
    pending = setTimeout(async () => {
      build = await importBuild(`?t=${Date.now()}`);
      broadcastDevReady(build);
    }, 50);
  });
}
