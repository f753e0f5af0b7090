/**
 * /admin/preview/<collection>: the editor's preview, rendered by this server with the pages' own
 * components (docs/decisions/049-previews-rendered-by-the-site.md). It answers the site's own
 * /admin/ page only, with the guards of the editor it serves: editing locally, the local editor's
 * (its Host, its Origin and the run's token, as /admin/api/v1); signed in with GitHub, the site's
 * Origin and the editor's GitHub token, one that may push to the repository. The posted entry is
 * data, at most MAX_BODY of JSON, validated with its collection's schema by the renderer.
 */
import express, { type ErrorRequestHandler, type Request, type Response, type Router } from "express";
import type { EditorPreview } from "~/editor-preview/render.server";
import { MAX_TEXT_FILE_BYTES, sizeOf } from "../../scripts/lib/content/limits";
import type { EditorCheck } from "./github-editor";
import { type LocalEditorOrigin, refusalOfCaller } from "./local-editor/request-origin";

/** A content file is at most 256 KB; as JSON, with its escapes, twice that. */
export const MAX_BODY = 2 * MAX_TEXT_FILE_BYTES;

/** Where /admin serves the fonts' stylesheets of previews (scripts/build-media.ts writes them). */
export const PREVIEW_FONT_STYLESHEET = "/admin/preview-fonts.css";
export const PREVIEW_HINDI_STYLESHEET = "/admin/preview-devanagari.css";

export type PreviewAccess =
  | { kind: "local"; local: LocalEditorOrigin }
  | {
      kind: "github";
      /** SITE_URL's origin, or undefined when it was not given (then the request's own). */
      origin: string | undefined;
      isEditor: EditorCheck;
      clientOf: (request: Request) => string | null;
    };

export interface PreviewOptions {
  access: PreviewAccess;
  /** The server build's renderer; undefined while there is no build. */
  renderer: () => EditorPreview | undefined;
  log: (line: string) => void;
}

/** The request's own origin, as the server settled it (server/request-line.ts). */
const ownOrigin = (request: Request) => `${request.protocol}://${request.headers.host}`;

/** The token of `Authorization: token …` (or `Bearer …`), as Decap's GitHub backend sends it to GitHub. */
const bearer = (header: string | undefined) => /^(?:token|bearer) (\S{1,255})$/i.exec(header ?? "")?.[1];

export function createPreview({ access, renderer, log }: PreviewOptions): Router {
  const router = express.Router();

  const refuse = (response: Response, reason: string) => {
    log(`admin: refused a preview: ${reason}; only the site's own /admin/ page may ask for one`);
    response.status(403).json({ error: `refused: ${reason}` });
  };

  router.post(
    "/:collection",
    async (request, response, next) => {
      try {
        if (access.kind === "local") {
          const refusal = refusalOfCaller(request.headers, request.query.token, access.local);
          return refusal ? refuse(response, refusal) : next();
        }
        if (request.headers.origin !== (access.origin ?? ownOrigin(request))) {
          return refuse(response, "its Origin is not the site's");
        }
        const token = bearer(request.headers.authorization);
        if (token === undefined) return refuse(response, "it carries no GitHub token");
        const answer = await access.isEditor(token, access.clientOf(request));
        if (answer.editor) return next();
        if (answer.why === "too many checks") {
          response.setHeader("Retry-After", String(answer.retryAfterSeconds));
          return response.status(429).json({ error: "too many editors' tokens checked: try again shortly" });
        }
        if (answer.why === "GitHub did not answer") {
          return response.status(503).json({ error: "GitHub did not answer whether this token may edit" });
        }
        return refuse(response, "its GitHub token may not push to the repository");
      } catch (error) {
        next(error);
      }
    },
    (request, response, next) => {
      // JSON only: a form on another site cannot send it without the browser asking first.
      if (request.is("application/json")) return next();
      response.status(415).json({ error: "the entry must be sent as application/json" });
    },
    express.json({ limit: MAX_BODY, type: "application/json" }),
    async (request, response, next) => {
      try {
        const preview = renderer();
        if (!preview) {
          log("admin: the server build has no preview renderer: run `npm run build`");
          return response.status(503).json({ error: "the previews are not built" });
        }
        const collection = String(request.params.collection);
        const answer = await preview.render(collection, request.body, {
          fontStylesheet: PREVIEW_FONT_STYLESHEET,
          hindiStylesheet: PREVIEW_HINDI_STYLESHEET,
        });
        if (answer.status === "no preview") {
          return response.status(404).json({ error: "this collection has no preview" });
        }
        response.json(
          answer.status === "page" ? { html: answer.html } : { html: answer.html, faults: answer.faults },
        );
      } catch (error) {
        next(error);
      }
    },
  );

  const answerBodyError: ErrorRequestHandler = (error: { type?: unknown }, _request, response, next) => {
    if (error.type === "entity.too.large") {
      log(`admin: refused a preview: its body is over ${sizeOf(MAX_BODY)}`);
      return response.status(413).json({ error: "the entry is too large to preview" });
    }
    if (error.type === "entity.parse.failed")
      return response.status(400).json({ error: "the body is not JSON" });
    next(error);
  };
  router.use(answerBodyError);
  return router;
}
