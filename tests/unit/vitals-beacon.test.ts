import { describe, expect, it } from "vitest";
import { seo } from "~/content/seo";
import { parseEnv } from "~/env.server";
import { readJsonBody } from "~/vitals/body.server";
import {
  coresBucketOf,
  deviceClassOf,
  deviceTierOf,
  memoryBucketOf,
  routeOf,
  VITALS_ROUTES,
} from "~/vitals/metrics";
import { parseBeacon } from "~/vitals/schema.server";

const valid = {
  route: "/",
  device: "mobile",
  navigationType: "navigate",
  cores: 8,
  memoryGb: 4,
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
    ["cores that are no bucket", { cores: 6 }],
    ["cores as a string", { cores: "8" }],
    ["cores over the largest bucket", { cores: 32 }],
    ["cores as zero", { cores: 0 }],
    ["memory that is no bucket", { memoryGb: 3 }],
    ["memory as a string", { memoryGb: "4" }],
    ["memory over 8 GB", { memoryGb: 16 }],
    ["memory below 0.25 GB", { memoryGb: 0.125 }],
  ])("rejects %s", (_, change) => {
    expect(parseBeacon({ ...valid, ...change })).toBeNull();
  });

  it("takes unknown cores and memory as null, and a beacon of an earlier build without them", () => {
    expect(parseBeacon({ ...valid, cores: null, memoryGb: null })).toEqual({
      ...valid,
      cores: null,
      memoryGb: null,
    });
    const { cores: _cores, memoryGb: _memoryGb, ...earlier } = valid;
    expect(parseBeacon(earlier)).toEqual({ ...earlier, cores: null, memoryGb: null });
    expect(parseBeacon({ ...valid, cores: 1, memoryGb: 0.25 })).toEqual({
      ...valid,
      cores: 1,
      memoryGb: 0.25,
    });
  });

  it("rejects what is not an object", () => {
    for (const input of [null, [], "LCP", 42]) expect(parseBeacon(input)).toBeNull();
  });
});

describe("routeOf and deviceClassOf", () => {
  it("knows every page of the sitemap, the content pages by their pattern, and calls every other path the 404 page", () => {
    expect(VITALS_ROUTES).toEqual(expect.arrayContaining(seo.sitemap.map((page) => page.path)));
    expect(routeOf("/")).toBe("/");
    expect(routeOf("/privacy-policy")).toBe("/privacy-policy");
    expect(routeOf("/privacy-policy/")).toBe("/privacy-policy");
    expect(routeOf("/case-studies")).toBe("/case-studies");
    expect(routeOf("/case-studies/pawpal/")).toBe("/case-studies/:slug");
    expect(routeOf("/insights")).toBe("/insights");
    expect(routeOf("/insights/page/2")).toBe("/insights/page/:page");
    expect(routeOf("/insights/mvp-kaise-banayein")).toBe("/insights/:slug");
    expect(routeOf("/insights/a/b")).toBe("404");
    expect(routeOf("/customers/acme/invoice-17")).toBe("404");
    expect(routeOf("/build/manifest.js")).toBe("404");
    expect(routeOf("404")).toBe("404");
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

  it("refuses more than 4 KiB with 413, declared or not", async () => {
    const big = JSON.stringify({ pad: "x".repeat(4096) });
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

describe("the device's cores, memory and tier", () => {
  it("rounds cores down to 1, 2, 4, 8 or 16, and knows none where the browser says nothing", () => {
    expect([1, 2, 3, 4, 6, 8, 12, 16, 64].map(coresBucketOf)).toEqual([1, 2, 2, 4, 4, 8, 8, 16, 16]);
    expect([undefined, 0, 0.5, Number.NaN, "8"].map(coresBucketOf)).toEqual([null, null, null, null, null]);
  });

  it("keeps the memory the browser reports within 0.25 to 8 GB", () => {
    expect([0.25, 0.5, 1, 2, 4, 8, 32].map(memoryBucketOf)).toEqual([0.25, 0.5, 1, 2, 4, 8, 8]);
    expect([undefined, 0.1, "4"].map(memoryBucketOf)).toEqual([null, null, null]);
  });

  it("calls a device low-end with at most 4 cores or at most 2 GB, unknown when it says neither", () => {
    expect(deviceTierOf({ cores: 8, memoryGb: 2 })).toBe("low-end");
    expect(deviceTierOf({ cores: 4, memoryGb: 8 })).toBe("low-end");
    expect(deviceTierOf({ cores: 4, memoryGb: null })).toBe("low-end");
    expect(deviceTierOf({ cores: null, memoryGb: 1 })).toBe("low-end");
    expect(deviceTierOf({ cores: 8, memoryGb: 4 })).toBe("other");
    expect(deviceTierOf({ cores: 16, memoryGb: null })).toBe("other");
    expect(deviceTierOf({ cores: null, memoryGb: null })).toBe("unknown");
  });
});
