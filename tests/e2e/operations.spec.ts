import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { Agent, request as httpRequest } from "node:http";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readLeads } from "../../scripts/lib/lead-fixtures";
import { startServer } from "../../scripts/lib/server-process";
import { enquiryBody, validEnquiry } from "../support/enquiry-page";
import { expect, test } from "../support/fixtures";

test("documents must be revalidated; hashed build assets are cached for a year", async ({ request }) => {
  const home = await request.get("/");
  expect(home.headers()["cache-control"]).toMatch(/^public, max-age=0, s-maxage=\d+/);
  const visitorsOwn = await request.get("/?page=2");
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

test.describe("process", { tag: "@process" }, () => {
  test.describe.configure({ timeout: 60_000 });

  test("SIGTERM lets in-flight requests finish, then the server exits 0", async ({ serverNode }) => {
    const server = await startServer({ node: serverNode, env: { ENQUIRY_RATE_LIMIT: "0" } });
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

      const responses = await Promise.all(inFlight.map((request) => request.finish()));
      for (const [index, response] of responses.entries()) {
        const path = paths[index % paths.length];
        const expected = path === "/no-such-page" ? 404 : path === "/healthz" ? 503 : 200;
        expect(response).toMatch(new RegExp(`^HTTP/1\\.1 ${expected} `));
        expect(response).toMatch(/\r\nConnection: close\r\n/i);
        expect(response.split("\r\n\r\n")[1]?.length).toBeGreaterThan(10);
      }
      const [code, signal] = (await exited) as [number | null, string | null];
      expect({ code, signal }).toEqual({ code: 0, signal: null });
      // Their end let it go, not the 10 s deadline (which logs that it was still busy).
      expect(server.output()).not.toContain("still busy");
    } finally {
      await server.stop();
    }
  });

  test("SIGTERM with a half-sent request, a busy keep-alive client and a request in flight: the request finishes, the rest is closed, the process exits 0 at the 10 s deadline", async ({
    serverNode,
  }) => {
    const folder = mkdtempSync(join(tmpdir(), "shutdown-"));
    const server = await startServer({
      node: serverNode,
      env: { ENQUIRY_RATE_LIMIT: "0", ENQUIRY_STORE_DIR: join(folder, "data") },
    });
    const sockets: Socket[] = [];
    try {
      // 1. A request whose headers never end.
      const halfSent = connect(server.port, "127.0.0.1");
      sockets.push(halfSent);
      halfSent.on("error", () => {});
      halfSent.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nX-Slow: `);

      // 2. A keep-alive client asking for /healthz back to back on one connection.
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      const busy: { status: number; connection: string; afterSignal: boolean }[] = [];
      let signalled = false;
      let busyEnded = 0;
      const busyLoop = (async () => {
        for (;;) {
          try {
            const response = await new Promise<{ status: number; connection: string }>((resolve, reject) => {
              const request = httpRequest(`${server.url}/healthz`, { agent }, (res) => {
                res.resume();
                res.on("end", () =>
                  resolve({ status: res.statusCode ?? 0, connection: String(res.headers.connection) }),
                );
              });
              request.on("error", reject);
              request.end();
            });
            busy.push({ ...response, afterSignal: signalled });
          } catch (error) {
            busyEnded = Date.now();
            return String(error);
          }
        }
      })();

      // 3. An enquiry whose body is half sent at SIGTERM and finished a second later.
      const body = new URLSearchParams(enquiryBody(validEnquiry())).toString();
      const inFlight = connect(server.port, "127.0.0.1");
      sockets.push(inFlight);
      const inFlightChunks: Buffer[] = [];
      inFlight.on("data", (chunk: Buffer) => inFlightChunks.push(chunk));
      const inFlightDone = new Promise<string>((resolve, reject) => {
        inFlight.on("end", () => resolve(Buffer.concat(inFlightChunks).toString("utf8")));
        inFlight.on("error", reject);
      });
      inFlight.write(
        `POST /?index HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 20)}`,
      );

      while (busy.length < 20) await sleep(10);
      const exited = once(server.process, "exit");
      const signalledAt = Date.now();
      signalled = true;
      server.process.kill("SIGTERM");

      const busyError = await busyLoop;
      const afterSignal = busy.filter((response) => response.afterSignal);
      // At most the one response already on the wire at the signal is the old 200.
      expect(afterSignal.filter((response) => response.status === 200).length).toBeLessThanOrEqual(1);
      // Anything answered later is the draining health check, and it closes the connection.
      for (const response of afterSignal.filter((candidate) => candidate.status !== 200)) {
        expect(response).toMatchObject({ status: 503, connection: "close" });
      }
      expect(busyError).toMatch(/ECONNREFUSED|ECONNRESET|socket hang up/);
      expect(busyEnded - signalledAt).toBeLessThan(1_000);
      agent.destroy();

      await sleep(1_000);
      inFlight.write(body.slice(20));
      const answer = await inFlightDone;
      expect(answer).toMatch(/^HTTP\/1\.1 303 /);
      expect(answer).toMatch(/\r\nConnection: close\r\n/i);
      expect(readLeads(join(folder, "data"))).toHaveLength(1);

      // The half-sent request holds the process until the deadline, and no longer.
      const [code, signal] = (await Promise.race([
        exited,
        sleep(20_000).then(() => ["still running 20 s after SIGTERM", null]),
      ])) as [number | string | null, string | null];
      const seconds = (Date.now() - signalledAt) / 1000;
      console.log(
        `shutdown: ${busy.length - afterSignal.length} busy responses before SIGTERM, after it [${afterSignal.map((r) => r.status).join(",")}], then ${busyError}; busy client cut off ${busyEnded - signalledAt} ms after SIGTERM; exit ${code} after ${seconds.toFixed(2)} s`,
      );
      expect({ code, signal }).toEqual({ code: 0, signal: null });
      // The deadline let it go: nothing else would before the half-sent request's 60 s headers
      // timeout. The upper bound leaves a busy machine its slack.
      expect(server.output()).toContain("shutdown: still busy after 10 s");
      expect(seconds).toBeGreaterThan(9.5);
      expect(seconds).toBeLessThan(15);
    } finally {
      for (const socket of sockets) socket.destroy();
      await server.stop();
      rmSync(folder, { recursive: true, force: true });
    }
  });

  test("SHUTDOWN_DEADLINE sets the deadline: a half-sent request is dropped after 2 s", async ({
    serverNode,
  }) => {
    const server = await startServer({ node: serverNode, env: { SHUTDOWN_DEADLINE: "2" } });
    const halfSent = connect(server.port, "127.0.0.1");
    halfSent.on("error", () => {});
    try {
      halfSent.write("GET / HTTP/1.1\r\n");
      await sleep(200);
      const exited = once(server.process, "exit");
      const signalledAt = Date.now();
      server.process.kill("SIGTERM");
      const [code] = (await exited) as [number | null];
      const seconds = (Date.now() - signalledAt) / 1000;
      expect(code).toBe(0);
      expect(seconds).toBeGreaterThan(1.5);
      expect(seconds).toBeLessThan(3);
    } finally {
      halfSent.destroy();
      await server.stop();
    }
  });

  test("every request is logged as one line, whoever answers it", async ({ serverNode }) => {
    const server = await startServer({ node: serverNode });
    try {
      // The first / is the app's; the next two come from the shared-document fast path.
      for (let index = 0; index < 3; index += 1) await get(`${server.url}/`);
      await get(`${server.url}/robots.txt`);
      await get(`${server.url}/no-such-page`);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const lines = server.output().split("\n");
      for (const [pattern, count] of [
        [/^GET \/ 200 \d+ - [\d.]+ ms$/, 3],
        [/^GET \/robots\.txt 200 /, 1],
        [/^GET \/no-such-page 404 /, 1],
      ] as const) {
        expect(lines.filter((line) => pattern.test(line))).toHaveLength(count);
      }
    } finally {
      await server.stop();
    }
  });
});
