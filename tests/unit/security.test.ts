import { createHash } from "node:crypto";
import type { EntryContext } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import {
  applySecurityHeaders,
  contentSecurityPolicy,
  createNonce,
  hashedContentSecurityPolicy,
  resourceSecurityPolicy,
  secureResponse,
} from "~/http/security.server";
import { documentCacheKey, SharedDocumentCache } from "~/shared-documents/document-cache.server";

const directives = (policy: string) =>
  new Map(
    policy.split(";").map((part) => {
      const [name = "", ...values] = part.trim().split(/\s+/);
      return [name, values] as const;
    }),
  );

describe("contentSecurityPolicy", () => {
  const nonce = "abc123+/==";
  const policy = directives(contentSecurityPolicy(nonce));

  it("runs scripts only by nonce, trusting what they load", () => {
    expect(policy.get("script-src")).toEqual([`'nonce-${nonce}'`, "'strict-dynamic'"]);
  });

  it("allows no inline script, no eval and no plugins anywhere", () => {
    const text = contentSecurityPolicy(nonce);
    expect(text).not.toContain("'unsafe-inline'");
    expect(text).not.toContain("'unsafe-eval'");
    expect(text).not.toMatch(/https?:|\*/);
    expect(policy.get("object-src")).toEqual(["'none'"]);
  });

  it("locks down the rest of the document", () => {
    expect(policy.get("default-src")).toEqual(["'self'"]);
    expect(policy.get("style-src")).toEqual(["'self'"]);
    expect(policy.get("img-src")).toEqual(["'self'", "data:"]);
    expect(policy.get("base-uri")).toEqual(["'none'"]);
    expect(policy.get("form-action")).toEqual(["'self'"]);
    expect(policy.get("frame-ancestors")).toEqual(["'none'"]);
  });
});

describe("hashedContentSecurityPolicy", () => {
  it("runs exactly the given scripts by hash and keeps every other directive", () => {
    const text = hashedContentSecurityPolicy(["AAA=", "BBB="]);
    const policy = directives(text);
    expect(policy.get("script-src")).toEqual(["'sha256-AAA='", "'sha256-BBB='", "'strict-dynamic'"]);
    expect(text).not.toContain("nonce");
    expect(text.replace(/script-src [^;]*/, "")).toBe(
      contentSecurityPolicy("x").replace(/script-src [^;]*/, ""),
    );
  });
});

describe("createNonce", () => {
  it("gives 128 random bits, never the same twice", () => {
    const nonces = new Set(Array.from({ length: 1000 }, createNonce));
    expect(nonces.size).toBe(1000);
    for (const nonce of nonces) expect(Buffer.from(nonce, "base64")).toHaveLength(16);
  });
});

describe("applySecurityHeaders", () => {
  it("sets the document policy with the nonce and the other headers", () => {
    const headers = new Headers();
    applySecurityHeaders(headers, "n0nce");
    expect(headers.get("Content-Security-Policy")).toBe(contentSecurityPolicy("n0nce"));
    expect(headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(headers.get("Referrer-Policy")).toBe("strict-origin-when-cross-origin");
    // A public page asks for no browsing context group of its own (decision 040).
    expect(headers.has("Cross-Origin-Opener-Policy")).toBe(false);
    expect(headers.get("Strict-Transport-Security")).toBe("max-age=63072000; includeSubDomains");
    expect(headers.get("Permissions-Policy")).toMatch(/camera=\(\)/);
  });

  it("gives responses without a nonce a policy that loads nothing", () => {
    const response = secureResponse("ok", { headers: { "Content-Type": "text/plain" } });
    expect(response.headers.get("Content-Security-Policy")).toBe(resourceSecurityPolicy);
    expect(directives(resourceSecurityPolicy).get("default-src")).toEqual(["'none'"]);
    expect(response.headers.get("Content-Type")).toBe("text/plain");
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
  });
});

function context(options: {
  handles?: unknown[];
  loaderData?: unknown;
  actionData?: unknown;
  errors?: unknown;
}) {
  const handles = options.handles ?? [{ sharedDocument: true }, { sharedDocument: true }];
  const ids = handles.map((_, index) => `route-${index}`);
  return {
    routeModules: Object.fromEntries(ids.map((id, index) => [id, { handle: handles[index] }])),
    staticHandlerContext: {
      matches: ids.map((id) => ({ route: { id } })),
      loaderData: options.loaderData ?? { "route-0": { year: 2026 } },
      actionData: options.actionData ?? null,
      errors: options.errors ?? null,
    },
  } as unknown as Pick<EntryContext, "staticHandlerContext" | "routeModules">;
}

const get = (url = "http://localhost/", init?: RequestInit) => new Request(url, init);

describe("documentCacheKey", () => {
  it("caches a plain GET when every route opts in", () => {
    expect(documentCacheKey(get(), 200, new Headers(), context({}))).toContain("/");
  });

  it("answers HEAD like GET", () => {
    const head = documentCacheKey(
      get("http://localhost/", { method: "HEAD" }),
      200,
      new Headers(),
      context({}),
    );
    expect(head).toBe(documentCacheKey(get(), 200, new Headers(), context({})));
  });

  it("keys on the path and the loader data", () => {
    const a = documentCacheKey(get(), 200, new Headers(), context({}));
    const b = documentCacheKey(
      get(),
      200,
      new Headers(),
      context({ loaderData: { "route-0": { year: 2027 } } }),
    );
    const c = documentCacheKey(get("http://localhost/other"), 200, new Headers(), context({}));
    expect(new Set([a, b, c]).size).toBe(3);
  });

  it("shares a page whose loader data is long (the privacy policy's whole text), under a key as short as its path", () => {
    const text = "x".repeat(100_000);
    const long = documentCacheKey(
      get(),
      200,
      new Headers(),
      context({ loaderData: { "route-0": { text } } }),
    );
    const other = documentCacheKey(
      get(),
      200,
      new Headers(),
      context({ loaderData: { "route-0": { text: `${text}y` } } }),
    );
    expect(long).not.toBeNull();
    expect(long?.length).toBeLessThan(100);
    expect(long).not.toBe(other);
  });

  it.each([
    ["campaign parameters", "http://localhost/?utm_source=newsletter&utm_medium=email&utm_campaign=launch"],
    ["an ad click id", "http://localhost/?gclid=Cj0KCQ&fbclid=IwAR2"],
    ["an empty query", "http://localhost/?"],
  ])("keys %s like the clean URL", (_label, url) => {
    expect(documentCacheKey(get(url), 200, new Headers(), context({}))).toBe(
      documentCacheKey(get(), 200, new Headers(), context({})),
    );
  });

  it("ignores cookies: the site reads none, so foreign ones do not make a page personal", () => {
    const request = get("http://localhost/", {
      headers: { Cookie: "_ga=GA1.2.3; __cf_bm=x; cf_clearance=y" },
    });
    expect(documentCacheKey(request, 200, new Headers(), context({}))).toBe(
      documentCacheKey(get(), 200, new Headers(), context({})),
    );
  });

  it.each([
    ["a query string", get("http://localhost/?name=x"), 200, new Headers(), context({})],
    ["the enquiry notice's token", get("http://localhost/?enquiry=abc"), 200, new Headers(), context({})],
    [
      "a tracking parameter beside an unknown one",
      get("http://localhost/?utm_source=x&page=2"),
      200,
      new Headers(),
      context({}),
    ],
    ["a POST", get("http://localhost/", { method: "POST" }), 200, new Headers(), context({})],
    ["a PUT", get("http://localhost/", { method: "PUT" }), 200, new Headers(), context({})],
    ["a non-200 status", get(), 404, new Headers(), context({})],
    ["a path in upper case", get("http://localhost/Privacy-Policy"), 200, new Headers(), context({})],
    ["a trailing slash", get("http://localhost/privacy-policy/"), 200, new Headers(), context({})],
    ["a percent-encoded hyphen", get("http://localhost/privacy%2Dpolicy"), 200, new Headers(), context({})],
    ["a Set-Cookie header", get(), 200, new Headers({ "Set-Cookie": "a=b" }), context({})],
    ["action data", get(), 200, new Headers(), context({ actionData: { "route-1": { ok: true } } })],
    ["route errors", get(), 200, new Headers(), context({ errors: { "route-1": new Error("x") } })],
    [
      "a route that did not opt in",
      get(),
      200,
      new Headers(),
      context({ handles: [{ sharedDocument: true }, {}] }),
    ],
    ["a route without a handle", get(), 200, new Headers(), context({ handles: [undefined] })],
    [
      "deferred loader data",
      get(),
      200,
      new Headers(),
      context({ loaderData: { r: { later: Promise.resolve(1) } } }),
    ],
  ])("renders afresh for %s", (_label, request, status, headers, entry) => {
    expect(documentCacheKey(request, status, headers, entry)).toBeNull();
  });
});

describe("SharedDocumentCache", () => {
  const headers = () => new Headers({ "Content-Type": "text/html; charset=utf-8" });

  it("stores the page without the placeholder's nonce attributes, allowing its scripts by hash", async () => {
    const cache = new SharedDocumentCache();
    const html = `<script nonce="${cache.placeholder}">go()</script><p>text</p>`;
    const page = await cache.set("k", html, headers());
    const answer = page?.answer({ method: "GET" });
    expect(Buffer.from(answer?.body ?? []).toString()).toBe("<script>go()</script><p>text</p>");
    expect(answer?.headers["content-security-policy"]).toContain(
      `'sha256-${createHash("sha256").update("go()").digest("base64")}'`,
    );
    expect(await cache.get("k")).toBe(page);
  });

  it("refuses to share a page that needs its nonce outside a nonce attribute", () => {
    const cache = new SharedDocumentCache();
    expect(cache.set("k", `<p>${cache.placeholder}</p>`, headers())).toBeNull();
    expect(cache.get("k")).toBeUndefined();
  });

  it("uses a different placeholder in every process", () => {
    expect(new SharedDocumentCache().placeholder).not.toBe(new SharedDocumentCache().placeholder);
  });

  it("keeps a bounded number of pages, dropping the least recently used", async () => {
    const cache = new SharedDocumentCache(2);
    const a = cache.set("a", "A", headers());
    cache.set("b", "B", headers());
    cache.get("a");
    cache.set("c", "C", headers());
    expect(cache.size).toBe(2);
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")).toBe(a);
  });
});

describe("SharedDocumentCache under a flood of new pages", () => {
  const headers = () => new Headers({ "Content-Type": "text/html; charset=utf-8" });

  it("keeps the pages asked for again: a hundred pages asked for once evict only each other", () => {
    const cache = new SharedDocumentCache(8);
    const home = cache.set("/", "home", headers());
    const policy = cache.set("/privacy-policy", "policy", headers());
    cache.get("/");
    cache.get("/privacy-policy");
    for (let index = 0; index < 100; index += 1) cache.set(`/page-${index}`, `page ${index}`, headers());
    expect(cache.size).toBe(8);
    expect(cache.get("/")).toBe(home);
    expect(cache.get("/privacy-policy")).toBe(policy);
    expect(cache.get("/page-0")).toBeUndefined();
    expect(cache.get("/page-99")).toBeDefined();
    expect(cache.stats()).toEqual({ entries: 8, rendered: 102 });
  });
});
