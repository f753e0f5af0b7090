import { describe, expect, it } from "vitest";
import { seo } from "~/content/seo";
import { parseEnv } from "~/env.server";
import { readJsonBody } from "~/vitals/body.server";
import { deviceClassOf, routeOf, VITALS_ROUTES } from "~/vitals/metrics";
import { parseBeacon } from "~/vitals/schema.server";

const valid = {
  route: "/",
  device: "mobile",
  navigationType: "navigate",
  metrics: [
    { name: "LCP", value: 2100, rating: "good" },
    { name: "INP", value: 96, rating: "good" },
    { name: "CLS", value: 0.012, rating: "good" },
    { name: "FCP", value: 900, rating: "good" },
    { name: "TTFB", value: 210, rating: "good" },
  ],
};

describe("the beacon schema", () => {
  it("accepts a page view's five metrics", () => {
    expect(parseBeacon(valid)).toEqual(valid);
  });

  it.each([
    ["an unknown metric", { metrics: [{ name: "FID", value: 10, rating: "good" }] }],
    ["a value that is not a number", { metrics: [{ name: "LCP", value: "2100", rating: "good" }] }],
    ["a negative value", { metrics: [{ name: "LCP", value: -1, rating: "good" }] }],
    ["a timing over ten minutes", { metrics: [{ name: "LCP", value: 600_001, rating: "poor" }] }],
    ["a CLS over 100", { metrics: [{ name: "CLS", value: 101, rating: "poor" }] }],
    ["an unknown rating", { metrics: [{ name: "LCP", value: 1, rating: "great" }] }],
    ["a metric twice", { metrics: [valid.metrics[0], valid.metrics[0]] }],
    ["no metric", { metrics: [] }],
    ["a path that is not one of the site's routes", { route: "/admin" }],
    ["a full URL for a path", { route: "https://example.com/" }],
    ["an unknown device class", { device: "watch" }],
    ["an unknown navigation type", { navigationType: "teleport" }],
    ["an extra field", { userAgent: "Mozilla/5.0" }],
    ["an extra field in a metric", { metrics: [{ ...valid.metrics[0], id: "v5-1" }] }],
  ])("rejects %s", (_, change) => {
    expect(parseBeacon({ ...valid, ...change })).toBeNull();
  });

  it("rejects what is not an object", () => {
    for (const input of [null, [], "LCP", 42]) expect(parseBeacon(input)).toBeNull();
  });
});

describe("routeOf and deviceClassOf", () => {
  it("knows every page of the sitemap, and calls every other path the 404 page", () => {
    expect(VITALS_ROUTES.filter((route) => route !== "404")).toEqual(seo.sitemap.map((page) => page.path));
    expect(routeOf("/")).toBe("/");
    expect(routeOf("/privacy-policy")).toBe("/privacy-policy");
    expect(routeOf("/privacy-policy/")).toBe("/privacy-policy");
    expect(routeOf("/customers/acme/invoice-17")).toBe("404");
    expect(routeOf("/build/manifest.js")).toBe("404");
  });

  it("classes viewports below 768 px as mobile and below 1024 px as tablet", () => {
    expect([320, 767, 768, 1023, 1024, 2560].map(deviceClassOf)).toEqual([
      "mobile",
      "mobile",
      "tablet",
      "tablet",
      "desktop",
      "desktop",
    ]);
  });
});

const post = (body: BodyInit, headers: Record<string, string> = { "Content-Type": "application/json" }) =>
  new Request("http://localhost/vitals", { method: "POST", body, headers });

describe("readJsonBody", () => {
  it("reads JSON, with or without a charset", async () => {
    expect(await readJsonBody(post('{"a":1}'))).toEqual({ ok: true, value: { a: 1 } });
    const withCharset = post("[]", { "Content-Type": "application/json; charset=utf-8" });
    expect(await readJsonBody(withCharset)).toEqual({ ok: true, value: [] });
  });

  it("refuses another content type, malformed JSON and bytes that are not UTF-8 with 400", async () => {
    expect(await readJsonBody(post('{"a":1}', { "Content-Type": "text/plain" }))).toMatchObject({
      status: 400,
    });
    expect(await readJsonBody(post('{"a":'))).toMatchObject({ status: 400 });
    expect(await readJsonBody(post(new Uint8Array([0x7b, 0xff, 0x7d])))).toMatchObject({ status: 400 });
  });

  it("refuses more than 2 KiB with 413, declared or not", async () => {
    const big = JSON.stringify({ pad: "x".repeat(2048) });
    expect(await readJsonBody(post(big))).toMatchObject({ status: 413 });
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(big));
        controller.close();
      },
    });
    const undeclared = new Request("http://localhost/vitals", {
      method: "POST",
      body: stream,
      headers: { "Content-Type": "application/json" },
      duplex: "half",
    } as RequestInit);
    expect(undeclared.headers.get("Content-Length")).toBeNull();
    expect(await readJsonBody(undeclared)).toMatchObject({ status: 413, reason: "body over the limit" });
  });
});

describe("the vitals settings", () => {
  it("default to ./data, 60 beacons per client per 10 minutes and 10 MB per file", () => {
    expect(parseEnv({}, () => {})).toMatchObject({
      ENQUIRY_STORE_DIR: "./data",
      VITALS_RATE_LIMIT: 60,
      VITALS_RATE_WINDOW: 600,
      VITALS_MAX_MB: 10,
    });
  });

  it("fall back to the default with one line for a bad value", () => {
    const lines: string[] = [];
    expect(parseEnv({ VITALS_MAX_MB: "lots" }, (line) => lines.push(line)).VITALS_MAX_MB).toBe(10);
    expect(lines).toEqual([expect.stringMatching(/^config: VITALS_MAX_MB="lots" is invalid/)]);
  });
});
