import { once } from "node:events";
import { request as httpRequest } from "node:http";
import { expect, test } from "../support/fixtures";
import { startServer } from "../support/server";

test("documents must be revalidated; hashed build assets are cached for a year", async ({ request }) => {
  const home = await request.get("/");
  expect(home.headers()["cache-control"]).toBe("no-cache");
  const html = await home.text();
  const asset = /\/build\/[^"]+\.(?:js|css)/.exec(html)?.[0];
  expect(asset).toBeDefined();
  const response = await request.get(asset ?? "");
  expect(response.status()).toBe(200);
  expect(response.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
});

/** One GET on its own connection (`agent: false`), so the server cannot treat it as an idle keep-alive. */
function get(url: string): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { agent: false }, (response) => {
      let bytes = 0;
      response.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
      });
      response.on("end", () => resolve({ status: response.statusCode ?? 0, bytes }));
      response.on("error", reject);
    });
    request.on("error", reject);
    request.end();
  });
}

test.describe("process", () => {
  test.describe.configure({ timeout: 60_000 });

  test("SIGTERM lets in-flight requests finish, then the server exits 0", async () => {
    const server = await startServer({ env: { ENQUIRY_RATE_LIMIT: "0" } });
    try {
      const started = Date.now();
      const inFlight = Array.from({ length: 60 }, () => get(`${server.url}/`));
      // The server is busy once the first answer is back; the rest are still being served.
      await Promise.race(inFlight);
      server.process.kill("SIGTERM");
      const exited = once(server.process, "exit");
      const results = await Promise.all(inFlight);
      expect(results.map((result) => result.status)).toEqual(results.map(() => 200));
      for (const result of results) expect(result.bytes).toBeGreaterThan(1000);
      const [code, signal] = (await Promise.race([
        exited,
        new Promise((resolve) => setTimeout(() => resolve(["still running after 3 s", null]), 3_000)),
      ])) as [number | string | null, string | null];
      expect({ code, signal }).toEqual({ code: 0, signal: null });
      expect(Date.now() - started).toBeLessThan(8_000);
      // Closed: no new connections are accepted.
      await expect(get(`${server.url}/healthz`)).rejects.toThrow(/ECONNREFUSED/);
    } finally {
      await server.stop();
    }
  });

  test("every request is logged as one line by remix-serve", async () => {
    const server = await startServer();
    try {
      await get(`${server.url}/`);
      await get(`${server.url}/robots.txt`);
      await get(`${server.url}/no-such-page`);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const lines = server.output().split("\n");
      for (const pattern of [/^GET \/ 200 /, /^GET \/robots\.txt 200 /, /^GET \/no-such-page 404 /]) {
        expect(lines.filter((line) => pattern.test(line))).toHaveLength(1);
      }
    } finally {
      await server.stop();
    }
  });
});
