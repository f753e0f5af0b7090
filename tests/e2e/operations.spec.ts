import { once } from "node:events";
import { readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { expect, test } from "../support/fixtures";
import { startServer } from "../support/server";

test("documents must be revalidated; hashed build assets are cached for a year", async ({ request }) => {
  const home = await request.get("/");
  expect(home.headers()["cache-control"]).toMatch(/^public, max-age=0, s-maxage=\d+/);
  const visitorsOwn = await request.get("/?ref=mail");
  expect(visitorsOwn.headers()["cache-control"]).toBe("private, no-cache");
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

/**
 * A GET whose header block is sent in two parts: once the server has read the first part the
 * request is in flight (Node no longer counts the connection as idle), and it stays so until
 * `finish()` sends the blank line that ends the headers.
 */
function startGet(port: number, path: string) {
  const socket = connect(port, "127.0.0.1");
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n`);
  const chunks: Buffer[] = [];
  socket.on("data", (chunk: Buffer) => chunks.push(chunk));
  const response = new Promise<string>((resolve, reject) => {
    socket.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    socket.on("error", reject);
  });
  return {
    finish: () => {
      socket.write("\r\n");
      return response;
    },
  };
}

/** Connections waiting in the kernel for the server to accept them (Linux: /proc/net/tcp). */
function acceptQueueLength(port: number): number {
  const local = `0100007F:${port.toString(16).toUpperCase().padStart(4, "0")}`;
  for (const line of readFileSync("/proc/net/tcp", "utf8").split("\n").slice(1)) {
    const [, address, , state, queues] = line.trim().split(/\s+/);
    if (address === local && state === "0A") return Number.parseInt(queues?.split(":")[1] ?? "0", 16);
  }
  return 0;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test.describe("process", () => {
  test.describe.configure({ timeout: 60_000 });

  test("SIGTERM lets in-flight requests finish, then the server exits 0", async () => {
    const server = await startServer({ env: { ENQUIRY_RATE_LIMIT: "0" } });
    try {
      const paths = ["/", "/?fresh=1", "/no-such-page", "/robots.txt", "/healthz"];
      const inFlight = Array.from({ length: 20 }, (_, index) =>
        startGet(server.port, paths[index % paths.length] ?? "/"),
      );
      // Accepted (the kernel's accept queue is empty) and read: the idle server reads at once.
      while (acceptQueueLength(server.port) > 0) await sleep(5);
      await sleep(300);
      const exited = once(server.process, "exit");
      server.process.kill("SIGTERM");
      await sleep(300);
      // Still running for the requests in flight, but taking no new connections.
      expect(server.process.exitCode).toBeNull();
      await expect(get(`${server.url}/healthz`)).rejects.toThrow(/ECONNREFUSED/);

      const sigtermAnswered = Date.now();
      const responses = await Promise.all(inFlight.map((request) => request.finish()));
      for (const [index, response] of responses.entries()) {
        const expected = paths[index % paths.length] === "/no-such-page" ? 404 : 200;
        expect(response).toMatch(new RegExp(`^HTTP/1\\.1 ${expected} `));
        expect(response.split("\r\n\r\n")[1]?.length).toBeGreaterThan(10);
      }
      const [code, signal] = (await Promise.race([
        exited,
        sleep(3_000).then(() => ["still running 3 s after the last response", null]),
      ])) as [number | string | null, string | null];
      expect({ code, signal }).toEqual({ code: 0, signal: null });
      expect(Date.now() - sigtermAnswered).toBeLessThan(3_000);
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
