import { once } from "node:events";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliDecompressSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFastPath, fastPathWindowMs } from "~/shared-documents/fast-path.server";
import { SharedDocument } from "~/shared-documents/shared-document.server";

const html = `<!DOCTYPE html><html><body>${"<p>Home</p>".repeat(100)}</body></html>`;
const fastPath = createFastPath();
let server: Server;
let port = 0;
/** The clock the server's fast path reads: tests move it to expire offers. */
let now = 1_000_000;

beforeAll(async () => {
  const document = await SharedDocument.create(
    html,
    new Headers({ "Content-Type": "text/html; charset=utf-8" }),
  );
  fastPath.offer("/", document, now);
  fastPath.offer("/terms", document, now - fastPathWindowMs);
  server = createServer((request, response) => {
    if (fastPath.serve(request, response, now)) return;
    response.writeHead(418, { "content-type": "text/plain" });
    response.end("the app");
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  port = (server.address() as AddressInfo).port;
});

afterAll(() => {
  server.close();
});

function send(method: string, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>(
    (resolve, reject) => {
      const request = httpRequest({ host: "127.0.0.1", port, method, path, headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks),
          }),
        );
      });
      request.on("error", reject);
      request.end();
    },
  );
}

describe("fast path", () => {
  it("answers a GET of an offered path with the stored coding and headers", async () => {
    const response = await send("GET", "/", { "accept-encoding": "gzip, deflate, br" });
    expect(response.status).toBe(200);
    expect(response.headers["content-encoding"]).toBe("br");
    expect(response.headers["cache-control"]).toMatch(/^public, /);
    expect(brotliDecompressSync(response.body).toString()).toBe(html);
  });

  it("answers 304 to a matching If-None-Match and HEAD without a body", async () => {
    const first = await send("GET", "/", { "accept-encoding": "gzip" });
    const etag = String(first.headers.etag);
    const notModified = await send("GET", "/", { "accept-encoding": "gzip", "if-none-match": etag });
    expect(notModified.status).toBe(304);
    expect(notModified.body).toHaveLength(0);
    const head = await send("HEAD", "/", { "accept-encoding": "gzip" });
    expect(head.status).toBe(200);
    expect(head.headers["content-length"]).toBe(String(first.body.length));
    expect(head.body).toHaveLength(0);
  });

  it.each([
    ["campaign parameters", "/?utm_source=newsletter&utm_medium=email&utm_campaign=launch", {}],
    ["ad click ids", "/?gclid=a&msclkid=b&fbclid=c", {}],
    ["an empty query", "/?", {}],
    ["foreign cookies", "/", { cookie: "_ga=GA1.2.3; __cf_bm=x" }],
  ])("serves the same document to a request with %s", async (_label, path, headers) => {
    const clean = await send("GET", "/", { "accept-encoding": "br" });
    const response = await send("GET", path, { "accept-encoding": "br", ...headers });
    expect(response.status).toBe(200);
    expect(response.headers.etag).toBe(clean.headers.etag);
    expect(Buffer.compare(response.body, clean.body)).toBe(0);
    const notModified = await send("GET", path, {
      "if-none-match": String(clean.headers.etag),
      "accept-encoding": "br",
    });
    expect(notModified.status).toBe(304);
  });

  it.each([
    ["a POST", "POST", "/", {}],
    ["an unknown query", "GET", "/?page=2", {}],
    ["a tracking parameter beside an unknown one", "GET", "/?utm_source=x&page=2", {}],
    ["the enquiry notice's token", "GET", "/?enquiry=abc", {}],
    ["a path never offered", "GET", "/privacy", {}],
    ["another spelling of the path", "GET", "//", {}],
  ])("leaves %s to the app", async (_label, method, path, headers) => {
    const response = await send(method, path, headers);
    expect(response.status).toBe(418);
    expect(response.body.toString()).toBe("the app");
  });

  it("after the window, sends one request to the app to renew the offer and serves the rest meanwhile", async () => {
    expect((await send("GET", "/terms")).status).toBe(418);
    expect((await send("GET", "/terms")).status).toBe(200);
    expect((await send("GET", "/terms")).status).toBe(200);
  });

  it("leaves the path to the app when no new offer came within another window", async () => {
    expect((await send("GET", "/")).status).toBe(200);
    now += fastPathWindowMs;
    expect((await send("GET", "/")).status).toBe(418);
    expect((await send("GET", "/")).status).toBe(200);
    now += fastPathWindowMs;
    expect((await send("GET", "/")).status).toBe(418);
    expect((await send("GET", "/")).status).toBe(418);
  });

  it("serves a renewed offer for a full window again", async () => {
    const document = await SharedDocument.create("<p>renewed</p>", new Headers());
    fastPath.offer("/", document, now);
    expect((await send("GET", "/")).body.toString()).toBe("<p>renewed</p>");
    now += fastPathWindowMs - 1;
    expect((await send("GET", "/")).status).toBe(200);
  });
});
