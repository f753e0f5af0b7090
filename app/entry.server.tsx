/**
 * Renders a page's HTML on the server: a shared document once for every visitor, or a page for one
 * request with its own nonce.
 */
import { PassThrough } from "node:stream";
import type { AppLoadContext, EntryContext, HandleDataRequestFunction } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";
import { NOTICE_PARAMETER } from "~/enquiry/notices";
import { CACHE_CONTROL } from "~/http/cache-control";
import { applySecurityHeaders, createNonce } from "~/http/security.server";
import { deferHydration } from "~/hydration/defer.server";
import { NonceProvider } from "~/nonce";
import { documentCacheKey } from "~/shared-documents/document-cache.server";

/** How long Remix waits for promises inside loader data: the site defers nothing. */
export const streamTimeout = 1_000;

/** The longest a render may take before React gives up and the error page is served. */
const renderTimeout = 5_000;

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  { sharedDocuments, fastPath }: AppLoadContext,
) {
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  const key = documentCacheKey(request, responseStatusCode, responseHeaders, remixContext);
  if (key !== null) {
    let page = sharedDocuments.get(key);
    if (page) {
      // The page is already rendered: the data Remix prepared for this render goes unread.
      remixContext.serverHandoffStream?.cancel().catch(() => {});
    } else {
      const { body, failed } = await render(request, remixContext, sharedDocuments.placeholder);
      const html = deferHydration(await new Response(body).text());
      if (failed) {
        return privateDocument(html, sharedDocuments.placeholder, responseHeaders, 500);
      }
      applySecurityHeaders(responseHeaders);
      page = sharedDocuments.set(key, html, responseHeaders) ?? undefined;
      if (!page) return privateDocument(html, sharedDocuments.placeholder, responseHeaders, 200);
    }
    const document = await page;
    // Until the app serves it again, the server answers this path in front of Express.
    fastPath.offer(new URL(request.url).pathname, document);
    const answer = document.answer({
      method: request.method,
      acceptEncoding: request.headers.get("Accept-Encoding"),
      ifNoneMatch: request.headers.get("If-None-Match"),
    });
    return new Response(answer.body, { status: answer.status, headers: answer.headers });
  }
  if (carriesNotice(request)) responseHeaders.set("Cache-Control", CACHE_CONTROL.personal);
  const nonce = createNonce();
  const { body, failed } = await render(request, remixContext, nonce);
  const html = deferHydration(await new Response(body).text());
  return privateDocument(html, nonce, responseHeaders, failed ? 500 : responseStatusCode);
}

/**
 * A document for this request alone, with a fresh nonce in place of `placeholder`: browsers
 * may keep it but must revalidate, and no shared cache may hand one visitor's page (or nonce)
 * to another.
 */
function privateDocument(html: string, placeholder: string, headers: Headers, status: number) {
  const nonce = createNonce();
  if (!/no-store/.test(headers.get("Cache-Control") ?? ""))
    headers.set("Cache-Control", CACHE_CONTROL.private);
  applySecurityHeaders(headers, nonce);
  return new Response(html.replaceAll(placeholder, nonce), { headers, status });
}

/**
 * Renders the whole document before the first byte: the page has no deferred data, and
 * crawlers, no-JS visitors and the CSP all want one complete HTML response.
 */
function render(request: Request, remixContext: EntryContext, nonce: string) {
  return new Promise<{ body: ReadableStream<Uint8Array>; failed: boolean }>((resolve, reject) => {
    let shellRendered = false;
    let failed = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RemixServer context={remixContext} url={request.url} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        onAllReady() {
          shellRendered = true;
          clearTimeout(timer);
          const body = new PassThrough();
          resolve({ body: createReadableStreamFromReadable(body), failed });
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          failed = true;
          if (shellRendered) console.error(error);
        },
      },
    );
    // Timed from React's first pass, not from here: on an event loop behind by seconds (a
    // flood of requests) a timer started now could fire before React began, making a 500 of
    // a page that renders in a few milliseconds. React's first pass is already queued, so this
    // runs after it; by then a page that waits on nothing is complete.
    setImmediate(() => {
      if (!shellRendered) timer = setTimeout(abort, renderTimeout);
    });
  });
}

export const handleDataRequest: HandleDataRequestFunction = (response, { request }) => {
  applySecurityHeaders(response.headers);
  // A data response for a sender's landing URL (the enquiry notice) or setting a cookie is this
  // visitor's alone; any other is the same for everyone but small and cheap, so no shared cache
  // need keep it.
  if (carriesNotice(request) || response.headers.has("Set-Cookie")) {
    response.headers.set("Cache-Control", CACHE_CONTROL.personal);
  } else if (!response.headers.has("Cache-Control")) {
    response.headers.set("Cache-Control", CACHE_CONTROL.private);
  }
  return response;
};

/**
 * A sender's landing URL (its notice token, valid or not): never stored by any cache, so a cache
 * keyed by URL can neither hand the sender a copy without the notice nor keep one with it.
 */
function carriesNotice(request: Request): boolean {
  return new URL(request.url).searchParams.has(NOTICE_PARAMETER);
}

export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  console.error(error);
}

/** /admin's previews, rendered with the pages' own components (server/admin/preview.ts calls it). */
export { editorPreview } from "~/editor-preview/render.server";
