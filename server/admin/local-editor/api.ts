/**
 * /admin/api/v1, the local editor's API (`npm run content`, docs/content-editing.md): the one way
 * to decap-server, which listens on a unix socket no page can reach. A call is passed on only
 * from the site's own /admin/ page (request-origin.ts), as a request of decap-server's API on
 * the configured branch whose every path is under content/ (decap-request.ts, content-paths.ts).
 * Anything else is answered 403 with one log line saying why, and never reaches decap-server.
 */
import { request as httpRequest } from "node:http";
import express, { type ErrorRequestHandler, type Response, type Router } from "express";
import { pathLeavingContent } from "./content-paths";
import { type DecapRequestRules, decapRequestSchema, pathsOf } from "./decap-request";
import { type LocalEditorOrigin, refusalOfCaller } from "./request-origin";

/** An upload travels in the body as base64: a 20 MB photo is about 27 MB of it. */
export const MAX_BODY = "32mb";

/** decap-server rebases and commits in git: a slow disk can take a while, never this long. */
const UPSTREAM_TIMEOUT_MS = 60_000;

export interface LocalEditorApiOptions extends LocalEditorOrigin {
  /** decap-server's unix socket. */
  socket: string;
  /** The git checkout decap-server edits. */
  repository: string;
  /** The rules of a request, once the site's collections are known; undefined when they are not built. */
  rules: () => DecapRequestRules | undefined;
  log: (line: string) => void;
}

export function createLocalEditorApi({
  socket,
  repository,
  rules,
  log,
  ...allowed
}: LocalEditorApiOptions): Router {
  const router = express.Router();
  let schema: { rules: DecapRequestRules; parse: ReturnType<typeof decapRequestSchema> } | undefined;

  const refuse = (response: Response, reason: string) => {
    log(
      `admin: refused a request to the local editor's API: ${reason}; only ${allowed.origin}/admin/ of this run of \`npm run content\` may call it`,
    );
    response.status(403).json({ error: `refused: ${reason}` });
  };

  router.post(
    "/",
    (request, response, next) => {
      const refusal = refusalOfCaller(request.headers, request.query.token, allowed);
      if (refusal) return refuse(response, refusal);
      next();
    },
    express.json({ limit: MAX_BODY, type: "application/json" }),
    async (request, response, next) => {
      try {
        const current = rules();
        if (!current) {
          log("admin: build/admin/config.json is missing: run `npm run build`");
          return response.status(503).json({ error: "the content editor's configuration is not built" });
        }
        if (schema?.rules !== current) schema = { rules: current, parse: decapRequestSchema(current) };
        const parsed = schema.parse.safeParse(request.body);
        if (!parsed.success) {
          const issue = parsed.error.issues[0];
          const where = issue?.path.length ? issue.path.join(".") : "its body";
          return refuse(response, `${where} ${issue?.message ?? "is not a request of decap-server's API"}`);
        }
        const leaving = await pathLeavingContent(repository, pathsOf(parsed.data));
        if (leaving !== undefined) return refuse(response, "a path it names leads out of content/ on disk");
        forward(JSON.stringify(parsed.data), response);
      } catch (error) {
        next(error);
      }
    },
  );

  const forward = (body: string, response: Response) => {
    const upstream = httpRequest(
      {
        socketPath: socket,
        path: "/api/v1",
        method: "POST",
        headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) },
        timeout: UPSTREAM_TIMEOUT_MS,
      },
      (answer) => {
        response.status(answer.statusCode ?? 502).type(answer.headers["content-type"] ?? "application/json");
        answer.pipe(response);
      },
    );
    upstream.on("timeout", () => upstream.destroy(new Error("timed out")));
    upstream.on("error", (error: NodeJS.ErrnoException) => {
      log(
        `admin: decap-server did not answer on CMS_LOCAL_SOCKET (${error.code ?? error.message}): restart \`npm run content\``,
      );
      if (response.headersSent) response.destroy();
      else response.status(502).json({ error: "the local editor's backend is not answering" });
    });
    upstream.end(body);
  };

  const answerBodyError: ErrorRequestHandler = (error: { type?: unknown }, _request, response, next) => {
    if (error.type === "entity.too.large") {
      log(`admin: refused a request to the local editor's API: its body is over ${MAX_BODY}`);
      return response.status(413).json({ error: `refused: the body is over ${MAX_BODY}` });
    }
    if (error.type === "entity.parse.failed") return refuse(response, "its body is not JSON");
    next(error);
  };
  router.use(answerBodyError);
  return router;
}
