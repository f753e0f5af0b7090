import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { enquiryBody, validEnquiry } from "../support/enquiry-page";
import { expect, test } from "../support/fixtures";
import { raw } from "../support/raw-http";
import { startServer } from "../support/server-process";

const browser = { "Accept-Encoding": "gzip, deflate, br, zstd" };
const shared = ["/", "/terms-conditions", "/privacy-policy", "/cookie-policy"];

for (const path of shared) {
  test(`${path} is the same bytes for every visitor, shareable and validated`, async ({ baseURL }) => {
    const first = await raw(baseURL, path, browser);
    const second = await raw(baseURL, path, browser);
    expect(first.status).toBe(200);
    expect(first.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(second.headers["content-security-policy"]).toBe(first.headers["content-security-policy"]);
    expect(Buffer.compare(first.body, second.body)).toBe(0);
    expect(first.headers["cache-control"]).toBe(
      "public, max-age=0, s-maxage=300, stale-while-revalidate=86400, stale-if-error=86400, no-transform",
    );
    expect(first.headers.vary).toBe("Accept-Encoding");
    expect(first.headers["set-cookie"]).toBeUndefined();
  });
}

test("another server process of the same build and configuration sends the same bytes and ETag", async ({
  baseURL,
}) => {
  const other = await startServer({ env: { SITE_URL: "https://www.nirmaan.digital" }, quiet: true });
  try {
    for (const path of ["/", "/privacy-policy"]) {
      const ours = await raw(baseURL, path, browser);
      const theirs = await raw(other.url, path, browser);
      expect(theirs.headers.etag, path).toBe(ours.headers.etag);
      expect(Buffer.compare(theirs.body, ours.body), path).toBe(0);
      // A copy a cache got from one server revalidates against the other.
      const revalidated = await raw(other.url, path, {
        ...browser,
        "If-None-Match": String(ours.headers.etag),
      });
      expect(revalidated.status).toBe(304);
    }
  } finally {
    await other.stop();
  }
});

test("shared documents are stored in brotli and gzip, chosen by Accept-Encoding, never compressed twice", async ({
  baseURL,
}) => {
  const identity = await raw(baseURL, "/");
  expect(identity.headers["content-encoding"]).toBeUndefined();
  const html = identity.body.toString("utf8");
  expect(html).toMatch(/^<!DOCTYPE html>/);
  expect(identity.headers["content-length"]).toBe(String(identity.body.length));

  const br = await raw(baseURL, "/", browser);
  expect(br.headers["content-encoding"]).toBe("br");
  expect(brotliDecompressSync(br.body).toString("utf8")).toBe(html);
  expect(br.body.length).toBeLessThan(identity.body.length / 4);

  const gzip = await raw(baseURL, "/", { "Accept-Encoding": "br;q=0.5, gzip" });
  expect(gzip.headers["content-encoding"]).toBe("gzip");
  expect(gunzipSync(gzip.body).toString("utf8")).toBe(html);

  // The server's compression would deflate for this client; the stored identity bytes go out untouched.
  const deflateOnly = await raw(baseURL, "/", { "Accept-Encoding": "deflate" });
  expect(deflateOnly.headers["content-encoding"]).toBeUndefined();
  expect(deflateOnly.headers.etag).toBe(identity.headers.etag);
  expect(new Set([identity, br, gzip].map((response) => response.headers.etag)).size).toBe(3);
});

test("a matching If-None-Match gets 304 without a body; HEAD gets the headers alone", async ({ baseURL }) => {
  const page = await raw(baseURL, "/privacy-policy", browser);
  const etag = String(page.headers.etag);
  const notModified = await raw(baseURL, "/privacy-policy", { ...browser, "If-None-Match": etag });
  expect(notModified.status).toBe(304);
  expect(notModified.body).toHaveLength(0);
  expect(notModified.headers.etag).toBe(etag);
  expect(notModified.headers["cache-control"]).toBe(page.headers["cache-control"]);
  expect(notModified.headers.vary).toBe(page.headers.vary);

  const otherCopy = await raw(baseURL, "/privacy-policy", { ...browser, "If-None-Match": '"outdated"' });
  expect(otherCopy.status).toBe(200);
  expect(Buffer.compare(otherCopy.body, page.body)).toBe(0);

  const head = await raw(baseURL, "/privacy-policy", browser, "HEAD");
  expect(head.status).toBe(200);
  expect(head.body).toHaveLength(0);
  expect(head.headers.etag).toBe(etag);
  expect(head.headers["content-length"]).toBe(String(page.body.length));
  expect(head.headers["content-encoding"]).toBe("br");
});

test("per-visitor documents and data are private, carry no validator and differ on every response", async ({
  baseURL,
  request,
}) => {
  const cases: Array<[string, Record<string, string>, string]> = [
    ["/?page=2", {}, "private, no-cache"],
    ["/?utm_source=mail&page=2", { Cookie: "_ga=GA1.2.3" }, "private, no-cache"],
    ["/no-such-page", {}, "private, no-cache"],
    ["/?enquiry=not-a-token", {}, "private, no-store"],
  ];
  for (const [path, headers, cacheControl] of cases) {
    const first = await raw(baseURL, path, { ...browser, ...headers });
    const second = await raw(baseURL, path, { ...browser, ...headers });
    expect(first.headers["cache-control"], path).toBe(cacheControl);
    expect(first.headers.etag, path).toBeUndefined();
    expect(first.headers["content-security-policy"]).not.toBe(second.headers["content-security-policy"]);
    expect(Buffer.compare(first.body, second.body)).not.toBe(0);
    // An If-None-Match never turns a visitor's own page into a 304.
    const conditional = await raw(baseURL, path, { ...headers, "If-None-Match": "*" });
    expect(conditional.status).not.toBe(304);
  }

  // Nor is the data of a client-side navigation: the home page's can hold a sender's notice.
  const data = await raw(baseURL, "/_root.data", browser);
  expect(data.status).toBe(200);
  expect(data.headers["cache-control"]).toBe("private, no-cache");

  // A POST's answer (here the invalid form's page, 400) is never shareable either.
  const posted = await request.post("/?index", { form: enquiryBody(validEnquiry({ email: "no" })) });
  expect(posted.status()).toBe(400);
  expect(posted.headers()["cache-control"]).toBe("private, no-cache");
  expect(posted.headers()["set-cookie"]).toBeUndefined();
});
