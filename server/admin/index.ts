/**
 * /admin: Decap CMS, the content editor, served by this server (docs/decisions/037-decap-cms.md).
 * The page, its configuration (the collections made at build time, build/admin/config.json, plus
 * the backend from the environment), Decap's bundle and the page's own script (written into
 * build/admin/ by scripts/build-media.ts), the previews rendered by the site (./preview) and the
 * GitHub sign-in's handshake. Everything under /admin is `no-store` and `noindex`; only the page
 * runs under /admin's own policy, so no public page is touched by it. Off (not configured), every
 * path under /admin answers a short 503 and nothing else.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import express, { type Request, type Router } from "express";
import type { EditorPreview } from "~/editor-preview/render.server";
import type { Env } from "~/env.server";
import { CACHE_CONTROL } from "~/http/cache-control";
import type { LimitStore } from "~/http/limits.server";
import { adminContentSecurityPolicy } from "~/http/security.server";
import { createEditorCheck } from "./github-editor";
import { createLocalEditorApi } from "./local-editor/api";
import type { DecapRequestRules } from "./local-editor/decap-request";
import { type LocalEditorOrigin, refusalOfHost } from "./local-editor/request-origin";
import { createOAuthHandlers } from "./oauth";
import { createPreview, type PreviewAccess } from "./preview";
import { createSignInLimits } from "./sign-in-limits";

export interface AdminOptions {
  env: Env;
  /** build/admin: Decap's bundle and config.json. */
  dir: string;
  /** The site's stylesheets, for Decap's own panes (the root route's links). */
  stylesheets: () => string[];
  /** The server build's preview renderer (app/editor-preview), undefined while there is no build. */
  editorPreview: () => EditorPreview | undefined;
  /** Whether SITE_URL was set to a valid origin (~/env.server's siteUrlGiven): GitHub's sign-in returns there. */
  siteUrlGiven: boolean;
  /** Where the sign-in limits count: the database's store with DATABASE_URL, memory otherwise. */
  limitStore?: LimitStore;
  /** The request's client as TRUST_PROXY lets it be known; null: unknown. */
  clientOf: (request: Request) => string | null;
  log?: (line: string) => void;
}

const escapeAttribute = (value: string) =>
  value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

/** What the page's script (build/admin/admin.js) reads: the stylesheets, and where and for which collections to ask for previews. */
interface PageSettings {
  stylesheets: string[];
  previewCollections: readonly string[];
  /** The local editor's run token, which the preview sends as /admin/api/v1's calls do. */
  previewToken: string | undefined;
}

const metaTag = (name: string, content: string) =>
  `<meta name="${name}" content="${escapeAttribute(content)}">`;

function adminPage({ stylesheets, previewCollections, previewToken }: PageSettings): string {
  const settings = [
    ...stylesheets.map((href) => metaTag("cms-preview-style", href)),
    metaTag("cms-preview-url", "/admin/preview"),
    metaTag("cms-preview-collections", previewCollections.join(" ")),
    ...(previewToken === undefined ? [] : [metaTag("cms-preview-token", previewToken)]),
  ];
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>Content editor</title>
<link href="/admin/config.yml" type="text/yaml" rel="cms-config-url">
${settings.join("\n")}
</head>
<body>
<script src="/admin/decap-cms.js"></script>
<script src="/admin/admin.js"></script>
</body>
</html>
`;
}

/** The local editor's host, origin and token, when `npm run content` runs this server. */
function localEditorOf(env: Env): LocalEditorOrigin | undefined {
  if (!env.CMS_LOCAL_TOKEN || !env.CMS_LOCAL_SOCKET || !env.CMS_LOCAL_REPOSITORY) return undefined;
  return { origin: new URL(env.SITE_URL).origin, token: env.CMS_LOCAL_TOKEN };
}

/**
 * The backend Decap edits through: decap-server on this machine, through this server's
 * /admin/api/v1 with the run's token (Decap's proxy backend), or GitHub with the sign-in below.
 */
function backendOf(env: Env, local: LocalEditorOrigin | undefined) {
  if (local) {
    const proxy_url = `/admin/api/v1?token=${encodeURIComponent(local.token)}`;
    return { backend: { name: "proxy", proxy_url, branch: env.CMS_GITHUB_BRANCH } };
  }
  return {
    backend: {
      name: "github",
      repo: env.CMS_GITHUB_REPO ?? "local/checkout",
      branch: env.CMS_GITHUB_BRANCH,
      base_url: env.SITE_URL,
      auth_endpoint: "admin/auth",
      api_root: env.CMS_GITHUB_API_ROOT,
    },
  };
}

/** Why /admin is off, as its one log line; undefined when it is on. */
function offReason(
  env: Env,
  local: LocalEditorOrigin | undefined,
  siteUrlGiven: boolean,
): string | undefined {
  if (local !== undefined) return undefined;
  if (env.CMS_GITHUB_REPO === undefined) {
    return "admin: /admin is off: set CMS_GITHUB_REPO, CMS_GITHUB_CLIENT_ID and CMS_GITHUB_CLIENT_SECRET (docs/configuration.md), or edit locally with `npm run content`";
  }
  if (env.NODE_ENV === "production" && !siteUrlGiven) {
    return "admin: /admin is off: GitHub's sign-in returns to SITE_URL, which is not set (or was refused at start); set SITE_URL to the site's public origin, such as https://www.example.com (docs/configuration.md)";
  }
  return undefined;
}

export function createAdmin({
  env,
  dir,
  stylesheets,
  editorPreview,
  siteUrlGiven,
  limitStore,
  clientOf,
  log = console.error,
}: AdminOptions): Router {
  const router = express.Router();
  const local = localEditorOf(env);
  router.use((request, response, next) => {
    response.setHeader("Cache-Control", CACHE_CONTROL.never);
    response.setHeader("X-Robots-Tag", "noindex, nofollow");
    // The local editor's config.yml carries the run's token: nothing of /admin on a name not the site's.
    const refusal = local && refusalOfHost(request.headers, local);
    if (!refusal) return next();
    log(`admin: refused a request to the local editor: ${refusal}; open it at ${local.origin}/admin/`);
    response.status(403).type("text/plain").send(`Refused: ${refusal}.\n`);
  });

  const off = offReason(env, local, siteUrlGiven);
  if (off !== undefined) {
    let told = false;
    router.use((_request, response) => {
      // Once per process: a scanner's requests add no lines.
      if (!told) log(off);
      told = true;
      response
        .status(503)
        .type("text/plain")
        .send("The content editor is not configured on this server: see docs/configuration.md.\n");
    });
    return router;
  }

  router.get(["/", ""], (request, response) => {
    // Decap reads its configuration and chunks relative to the page: keep the page at /admin/.
    if (!request.originalUrl.split("?")[0]?.endsWith("/")) return response.redirect(301, "/admin/");
    response.setHeader("Content-Security-Policy", adminContentSecurityPolicy(env.CMS_GITHUB_API_ROOT));
    // The sign-in window navigates to GitHub and back: it must keep its opener, this page.
    response.setHeader("Cross-Origin-Opener-Policy", "same-origin-allow-popups");
    response.type("html").send(
      adminPage({
        stylesheets: stylesheets(),
        previewCollections: editorPreview()?.collections ?? [],
        previewToken: local?.token,
      }),
    );
  });

  router.get("/config.yml", (request, response) => {
    const file = join(dir, "config.json");
    if (!existsSync(file)) {
      log("admin: build/admin/config.json is missing: run `npm run build`");
      return response
        .status(503)
        .type("text/plain")
        .send("The content editor's configuration is not built.\n");
    }
    const collections = JSON.parse(readFileSync(file, "utf8")) as object;
    // The site link: SITE_URL, or without it the site this very server is (`npm start` on another port).
    const site = siteUrlGiven ? env.SITE_URL : `${request.protocol}://${request.headers.host}`;
    const config = { ...backendOf(env, local), site_url: site, display_url: site, ...collections };
    // JSON is YAML: Decap parses it as its config.yml.
    response.type("text/yaml").send(`${JSON.stringify(config, null, 2)}\n`);
  });

  if (local && env.CMS_LOCAL_SOCKET && env.CMS_LOCAL_REPOSITORY) {
    let rules: DecapRequestRules | undefined;
    const rulesOf = () => {
      const file = join(dir, "config.json");
      if (rules || !existsSync(file)) return rules;
      const { collections } = JSON.parse(readFileSync(file, "utf8")) as { collections: { name: string }[] };
      rules = { branch: env.CMS_GITHUB_BRANCH, collections: new Set(collections.map(({ name }) => name)) };
      return rules;
    };
    router.use(
      "/api/v1",
      createLocalEditorApi({
        ...local,
        socket: env.CMS_LOCAL_SOCKET,
        repository: env.CMS_LOCAL_REPOSITORY,
        rules: rulesOf,
        log,
      }),
    );
  }

  const previewAccess: PreviewAccess = local
    ? { kind: "local", local }
    : {
        kind: "github",
        origin: siteUrlGiven ? new URL(env.SITE_URL).origin : undefined,
        isEditor: createEditorCheck({
          apiRoot: env.CMS_GITHUB_API_ROOT,
          repo: env.CMS_GITHUB_REPO ?? "",
          limitStore,
          log,
        }),
        clientOf,
      };
  router.use("/preview", createPreview({ access: previewAccess, renderer: editorPreview, log }));

  const oauth = createOAuthHandlers({ env, log, limits: createSignInLimits(limitStore), clientOf });
  router.get("/auth", oauth.auth);
  router.get("/callback", oauth.callback);

  router.use(express.static(dir, { index: false, cacheControl: false }));
  return router;
}
