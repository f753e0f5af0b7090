/**
 * The cache of shared documents (the same bytes for every visitor): which requests it answers, and
 * the documents it keeps.
 *
 * Why: docs/decisions/011-shared-documents.md.
 */
import { createHash, randomBytes } from "node:crypto";
import type { EntryContext } from "@remix-run/node";
import { isCanonicalSpelling } from "~/http/canonical-path";
import { SharedDocument } from "~/shared-documents/shared-document.server";
import { onlyTrackingParameters } from "~/tracking-parameters.server";

/**
 * Render-once cache for documents that are the same for every visitor.
 *
 * The rule: a GET (or HEAD) document is served from this cache only when
 * - the query is empty or holds only tracking parameters (`sharedDocumentPath`, with the list in
 *   ~/tracking-parameters.server: `utm_*`, `gclid`, `fbclid`…, which the site never reads): any other
 *   parameter may be read by a loader (the enquiry notice's `?enquiry=`), so it makes the
 *   document this request's; cookies play no part (the site reads none, and foreign ones must
 *   not cost a render),
 * - the status is 200, no action ran, no route errored and no loader set a cookie,
 * - EVERY matched route opts in with `export const handle = { sharedDocument: true }`, which
 *   promises that its markup is a pure function of the URL path and its loader data (no
 *   Date.now(), Math.random() or per-request values while rendering) and that its loader reads
 *   nothing per visitor but its own query parameters (no cookie, no header), and
 * - the loader data is plain JSON (no deferred promises); it is part of the key, so changed
 *   data (a new year in the footer, another SITE_URL) renders afresh.
 * A route that renders a per-request value (an anti-replay token) must not opt in: put the
 * value in loader data and the key changes on every request, so the cache only churns. A value
 * that comes with a query parameter of its own is fine: the parameter makes the request
 * private (the home page's notice, read from `?enquiry=`).
 *
 * The page is rendered once with a random placeholder in place of the CSP nonce; the stored
 * page drops the placeholder's nonce attributes and runs its inline scripts by hash instead
 * (~/shared-documents/shared-document.server), so every visitor gets the very same bytes.
 */
export class SharedDocumentCache {
  /** Hex, so no HTML or JSON escaping can alter it; 128 random bits, so page text never contains it. */
  readonly placeholder = randomBytes(16).toString("hex");
  /** Pages asked for once since they were rendered: a flood of new keys churns only these. */
  private readonly probation = new Map<string, Promise<SharedDocument>>();
  /** Pages asked for again: what visitors read, evicted only by other pages asked for again. */
  private readonly protected = new Map<string, Promise<SharedDocument>>();
  private renders = 0;

  /** `maxEntries` in all; a quarter of them (at least one) is always left to pages on probation. */
  constructor(private readonly maxEntries = 32) {}

  get(key: string): Promise<SharedDocument> | undefined {
    const kept = this.protected.get(key);
    if (kept) {
      // Least recently used goes first: re-insert on every hit.
      this.protected.delete(key);
      this.protected.set(key, kept);
      return kept;
    }
    const tried = this.probation.get(key);
    if (tried) {
      // Asked for a second time: promoted; the protected segment's oldest goes back to probation.
      this.probation.delete(key);
      this.protected.set(key, tried);
      for (const [oldest, page] of this.protected) {
        if (this.protected.size <= this.maxEntries - this.probationReserve) break;
        this.protected.delete(oldest);
        this.admit(oldest, page);
      }
    }
    return tried;
  }

  /**
   * Stores the page rendered with the placeholder nonce. Null when the placeholder shows up
   * anywhere but in a nonce attribute: such a page cannot do without its nonce, so it is not
   * shared (the caller serves it with a fresh nonce).
   */
  set(key: string, html: string, headers: Headers): Promise<SharedDocument> | null {
    const shared = html.replaceAll(` nonce="${this.placeholder}"`, "");
    if (shared.includes(this.placeholder)) return null;
    this.renders += 1;
    const page = SharedDocument.create(shared, headers);
    // A failed compression must not stay cached: the next request renders again.
    page.catch(() => {
      if (this.probation.get(key) === page) this.probation.delete(key);
      if (this.protected.get(key) === page) this.protected.delete(key);
    });
    this.protected.delete(key);
    this.admit(key, page);
    return page;
  }

  /** Pages kept, and pages rendered since the server started (what `/healthz` details show). */
  stats(): { entries: number; rendered: number } {
    return { entries: this.size, rendered: this.renders };
  }

  get size(): number {
    return this.probation.size + this.protected.size;
  }

  private get probationReserve(): number {
    return Math.max(1, Math.floor(this.maxEntries / 4));
  }

  /** On probation, the page there longest making room: never one asked for again. */
  private admit(key: string, page: Promise<SharedDocument>): void {
    this.probation.delete(key);
    this.probation.set(key, page);
    for (const oldest of this.probation.keys()) {
      if (this.size <= this.maxEntries) break;
      this.probation.delete(oldest);
    }
  }
}

/**
 * Whether a request may get a shared document at all, and under which path: a GET or HEAD
 * whose query is empty or holds only tracking parameters, whatever cookies come with it. The
 * one place that decides it, for the app's cache and the server's fast path alike; `target`
 * is the path and query as requested. Null: the request gets a page rendered for it alone.
 */
export function sharedDocumentPath(method: string, target: string): string | null {
  if ((method !== "GET" && method !== "HEAD") || !target.startsWith("/")) return null;
  const queryAt = target.indexOf("?");
  if (queryAt === -1) return target;
  return onlyTrackingParameters(target.slice(queryAt)) ? target.slice(0, queryAt) : null;
}

/** The cache key of a document response, or null when the response must be rendered for this request alone. */
export function documentCacheKey(
  request: Request,
  status: number,
  headers: Headers,
  context: Pick<EntryContext, "staticHandlerContext" | "routeModules">,
): string | null {
  const url = new URL(request.url);
  const path = sharedDocumentPath(request.method, url.pathname + url.search);
  // Only a page's one spelling is kept (the server redirects the others): no spelling costs an entry.
  if (path === null || !isCanonicalSpelling(path) || status !== 200 || headers.has("Set-Cookie")) return null;
  const { actionData, errors, matches, loaderData } = context.staticHandlerContext;
  if (actionData || errors) return null;
  const optedIn = matches.every((match) => {
    const handle: unknown = context.routeModules[match.route.id]?.handle;
    return (
      typeof handle === "object" &&
      handle !== null &&
      "sharedDocument" in handle &&
      handle.sharedDocument === true
    );
  });
  if (!optedIn || matches.length === 0) return null;
  let data: string;
  try {
    data = JSON.stringify(loaderData, plainJsonOnly);
  } catch {
    return null;
  }
  // The loader data by its digest: a page whose data is long (the privacy policy's whole text)
  // is shared like any other, and every key is as small as its path.
  return `${path}\n${createHash("sha256").update(data).digest("base64url")}`;
}

function plainJsonOnly(_key: string, value: unknown): unknown {
  if (typeof value === "function" || typeof value === "symbol" || typeof value === "bigint") {
    throw new TypeError("not plain JSON");
  }
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    const prototype = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) throw new TypeError("not plain JSON");
  }
  return value;
}
