import { createHash } from "node:crypto";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { CACHE_CONTROL } from "~/http/cache-control";
import { ifNoneMatchIncludes, negotiateEncoding } from "~/shared-documents/negotiation.server";
import { inlineScriptHashes } from "~/shared-documents/script-hashes.server";
import { SharedDocument, sharedVary } from "~/shared-documents/shared-document.server";

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("base64");

describe("negotiateEncoding", () => {
  it.each([
    [undefined, "identity"],
    ["", "identity"],
    ["gzip, deflate, br", "br"],
    ["gzip, deflate", "gzip"],
    ["deflate", "identity"],
    ["br;q=0.5, gzip", "gzip"],
    ["BR;Q=1, GZIP;q=0.9", "br"],
    ["gzip;q=0.8, br;q=0.8", "br"],
    ["br;q=0, gzip;q=0", "identity"],
    ["*", "br"],
    ["*;q=0.5, br;q=0", "gzip"],
    ["identity;q=1, gzip;q=0.5", "identity"],
    ["*;q=0", "identity"],
    ["gzip;q=0.001", "gzip"],
    ["gzip ; q = 0.7 , br;q=0.6", "gzip"],
  ])("Accept-Encoding %j gets %s", (header, expected) => {
    expect(negotiateEncoding(header)).toBe(expected);
  });
});

describe("ifNoneMatchIncludes", () => {
  it.each([
    ['"a"', '"a"', true],
    ['"b", "a"', '"a"', true],
    ['W/"a"', '"a"', true],
    ["*", '"a"', true],
    ['"b"', '"a"', false],
    ['"ab"', '"a"', false],
    [undefined, '"a"', false],
  ])("If-None-Match %j against %s: %s", (header, etag, expected) => {
    expect(ifNoneMatchIncludes(header, etag)).toBe(expected);
  });
});

describe("inlineScriptHashes", () => {
  it("hashes the raw text of every script the page runs, in document order, once each", () => {
    const html = [
      "<script>a()</script>",
      '<script type="module">import "/x.js";</script>',
      '<script type="text/x-remix-hydration">b("é")</script>',
      '<script type="application/ld+json">{"@type":"Thing"}</script>',
      '<script src="/build/c.js"></script>',
      "<script>a()</script>",
      "<SCRIPT>d &amp; e</SCRIPT>",
    ].join("");
    expect(inlineScriptHashes(html)).toEqual([
      sha256("a()"),
      sha256('import "/x.js";'),
      sha256('b("é")'),
      sha256("d &amp; e"),
    ]);
  });
});

describe("SharedDocument", () => {
  const html = `<!DOCTYPE html><html><head><script>start()</script></head><body>${"<p>Same for everyone.</p>".repeat(200)}</body></html>`;
  const create = () =>
    SharedDocument.create(
      html,
      new Headers({
        "Content-Type": "text/html; charset=utf-8",
        "X-Frame-Options": "DENY",
        "Content-Security-Policy": "script-src 'nonce-stale'",
        "Set-Cookie": "never=shared",
        "Cache-Control": "no-cache",
      }),
    );

  it("stores the page in brotli, gzip and identity, each with its own strong ETag", async () => {
    const document = await create();
    const br = document.answer({ method: "GET", acceptEncoding: "gzip, br" });
    const gzip = document.answer({ method: "GET", acceptEncoding: "gzip" });
    const identity = document.answer({ method: "GET" });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(br.body ?? new Uint8Array()).toString()).toBe(html);
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gzip.body ?? new Uint8Array()).toString()).toBe(html);
    expect(identity.headers["content-encoding"]).toBeUndefined();
    expect(Buffer.from(identity.body ?? []).toString()).toBe(html);
    for (const answer of [br, gzip, identity]) {
      expect(answer.status).toBe(200);
      expect(answer.headers["content-length"]).toBe(String(answer.body?.length));
      expect(answer.headers.etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    }
    expect(new Set([br, gzip, identity].map((answer) => answer.headers.etag)).size).toBe(3);
    expect(br.body?.length).toBeLessThan(identity.body?.length ?? 0);
  });

  it("is the same bytes and ETag when rendered again from the same page", async () => {
    const [a, b] = await Promise.all([create(), create()]);
    const [first, second] = [a, b].map((document) =>
      document.answer({ method: "GET", acceptEncoding: "br" }),
    );
    expect(first?.headers).toEqual(second?.headers);
    expect(Buffer.compare(first?.body ?? new Uint8Array(), second?.body ?? new Uint8Array())).toBe(0);
  });

  it("is shareable: hash CSP, shared Cache-Control, Vary, no cookie; other headers kept", async () => {
    const { headers } = (await create()).answer({ method: "GET" });
    expect(headers["content-security-policy"]).toContain(`'sha256-${sha256("start()")}' 'strict-dynamic'`);
    expect(headers["content-security-policy"]).not.toContain("nonce");
    expect(headers["cache-control"]).toBe(CACHE_CONTROL.shared);
    expect(headers["cache-control"]).toMatch(/^public, .*s-maxage=\d+/);
    expect(headers.vary).toBe(sharedVary);
    expect(headers["set-cookie"]).toBeUndefined();
    expect(headers["x-frame-options"]).toBe("DENY");
    expect(headers["content-type"]).toBe("text/html; charset=utf-8");
  });

  it("answers 304 without a body when the client holds the coding it would get", async () => {
    const document = await create();
    const etag = document.etag("br");
    const notModified = document.answer({ method: "GET", acceptEncoding: "br", ifNoneMatch: etag });
    expect(notModified.status).toBe(304);
    expect(notModified.body).toBeNull();
    expect(notModified.headers.etag).toBe(etag);
    expect(notModified.headers["cache-control"]).toBe(CACHE_CONTROL.shared);
    expect(notModified.headers.vary).toBe(sharedVary);
    expect(notModified.headers["content-length"]).toBeUndefined();
    // The gzip coding is another representation: the br copy is not it.
    expect(document.answer({ method: "GET", acceptEncoding: "gzip", ifNoneMatch: etag }).status).toBe(200);
  });

  it("answers HEAD with the GET's headers and no body", async () => {
    const document = await create();
    const head = document.answer({ method: "HEAD", acceptEncoding: "gzip" });
    const get = document.answer({ method: "GET", acceptEncoding: "gzip" });
    expect(head.status).toBe(200);
    expect(head.body).toBeNull();
    expect(head.headers).toEqual(get.headers);
  });
});
