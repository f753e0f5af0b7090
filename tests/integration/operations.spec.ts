import { once } from "node:events";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { Agent, request as httpRequest } from "node:http";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { postLanding } from "../support/beacons";
import { enquiryBody, validEnquiry } from "../support/enquiry-page";
import { expect, test } from "../support/fixtures";
import { readLeads } from "../support/lead-fixtures";
import { writeReadByServer } from "../support/raw-http";
import { type RunningServer, startServer } from "../support/server-process";

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
 * `finish()` sends the blank line that ends the headers. Resolves once the server has read it.
 */
async function startGet(port: number, path: string) {
  const socket = connect(port, "127.0.0.1");
  const chunks: Buffer[] = [];
  socket.on("data", (chunk: Buffer) => chunks.push(chunk));
  const response = new Promise<string>((resolve, reject) => {
    socket.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    socket.on("error", reject);
  });
  await writeReadByServer(socket, `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n`);
  return {
    finish: () => {
      socket.write("\r\n");
      return response;
    },
  };
}

/** The server's line when it begins to drain: its listener is closed by then. */
const DRAINING = /^shutdown: SIGTERM: draining, /m;

/** Resolves once the server has logged that it is draining. */
async function draining(server: RunningServer): Promise<void> {
  await expect.poll(() => server.output()).toMatch(DRAINING);
}

/** How late a loaded machine may run the server's deadline timer: the exit's margin past it. */
const TIMER_LATENESS_MS = 1_000;

/**
 * The milliseconds from the signal to the exit, as the server logged them on its way out
 * (`shutdown: still busy after …; exiting 10003 ms after SIGTERM`).
 */
function loggedExitMs(server: RunningServer, reason: RegExp): number {
  const line =
    server
      .output()
      .split("\n")
      .find((each) => reason.test(each)) ?? "";
  const elapsed = /exiting (\d+) ms after SIGTERM$/.exec(line)?.[1];
  expect(elapsed, `a line ${reason} with the time since SIGTERM in:\n${server.output()}`).toBeDefined();
  return Number(elapsed);
}

/**
 * The server exited at the deadline of `deadlineS` seconds, by the milliseconds it logged: not
 * before it (timers count whole milliseconds), nor later than a late timer runs.
 */
function expectExitAtDeadline(server: RunningServer, deadlineS: number): void {
  const exitMs = loggedExitMs(server, new RegExp(`^shutdown: still busy after ${deadlineS} s `));
  expect(exitMs).toBeGreaterThanOrEqual(deadlineS * 1000 - 1);
  expect(exitMs).toBeLessThan(deadlineS * 1000 + TIMER_LATENESS_MS);
}

test.describe("process", { tag: "@process" }, () => {
  test.describe.configure({ timeout: 60_000 });

  test("SIGTERM lets in-flight requests finish, then the server exits 0", async ({ serverNode }) => {
    const server = await startServer({ node: serverNode, env: { ENQUIRY_RATE_LIMIT: "0" } });
    try {
      const paths = ["/", "/?fresh=1", "/no-such-page", "/robots.txt", "/healthz"];
      const inFlight = await Promise.all(
        Array.from({ length: 20 }, (_, index) => startGet(server.port, paths[index % paths.length] ?? "/")),
      );
      const exited = once(server.process, "exit");
      server.process.kill("SIGTERM");
      await draining(server);
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
      // Their end let it go, not the deadline (which logs that it was still busy).
      expect(server.output()).not.toContain("still busy");
      expect(server.output()).toMatch(/^shutdown: done; exiting \d+ ms after SIGTERM$/m);
    } finally {
      await server.stop();
    }
  });

  test("SIGTERM writes what the last beacons brought (metrics, a landing's visit) before the server exits 0", async ({
    serverNode,
  }) => {
    const folder = mkdtempSync(join(tmpdir(), "beacon-batch-"));
    const server = await startServer({
      node: serverNode,
      env: { ENQUIRY_STORE_DIR: folder, ENQUIRY_OUTBOX: join(folder, "enquiries.jsonl") },
    });
    try {
      // Answered at once, written with the next batch: here, the one the stop writes.
      for (const value of [1200, 1300, 1400]) {
        const response = await postLanding(server.url, "last-batch", [
          { name: "LCP", value, rating: "good" },
        ]);
        expect(response.status).toBe(202);
      }
      const exited = once(server.process, "exit");
      server.process.kill("SIGTERM");
      expect(await exited).toEqual([0, null]);
      const metrics = readFileSync(join(folder, "vitals.jsonl"), "utf8").trim().split("\n");
      expect(metrics.map((line) => JSON.parse(line).value)).toEqual([1200, 1300, 1400]);
      const campaigns = join(folder, "campaigns");
      const visits = readdirSync(campaigns)
        .filter((name) => name.endsWith(".log"))
        .flatMap((name) => readFileSync(join(campaigns, name), "utf8").trim().split("\n"))
        .filter((line) => line.includes('"last-batch"') && line.includes('"visits"'));
      expect(visits).toHaveLength(3);
    } finally {
      await server.stop();
      rmSync(folder, { recursive: true, force: true });
    }
  });

  test("SIGTERM with a half-sent request, a busy keep-alive client and a request in flight: the request finishes, the rest is closed, the process exits 0 at the 10 s deadline", async ({
    serverNode,
  }) => {
    const folder = mkdtempSync(join(tmpdir(), "shutdown-"));
    const deadlineS = 10;
    const server = await startServer({
      node: serverNode,
      env: {
        ENQUIRY_RATE_LIMIT: "0",
        ENQUIRY_STORE_DIR: join(folder, "data"),
        SHUTDOWN_DEADLINE: String(deadlineS),
      },
    });
    const sockets: Socket[] = [];
    try {
      // 1. A request whose headers never end, read by the server.
      const halfSent = connect(server.port, "127.0.0.1");
      sockets.push(halfSent);
      halfSent.on("error", () => {});
      await writeReadByServer(halfSent, `GET / HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nX-Slow: `);

      // 2. An enquiry whose body is half sent at SIGTERM, finished once the server is draining.
      const body = new URLSearchParams(enquiryBody(validEnquiry())).toString();
      const inFlight = connect(server.port, "127.0.0.1");
      sockets.push(inFlight);
      const inFlightChunks: Buffer[] = [];
      inFlight.on("data", (chunk: Buffer) => inFlightChunks.push(chunk));
      const inFlightDone = new Promise<string>((resolve, reject) => {
        inFlight.on("end", () => resolve(Buffer.concat(inFlightChunks).toString("utf8")));
        inFlight.on("error", reject);
      });
      await writeReadByServer(
        inFlight,
        `POST /?index HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 20)}`,
      );

      // 3. A keep-alive client asking for /healthz back to back on one connection. Each request
      // notes whether the server had already said it was draining when the request was sent.
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      const busy: { status: number; connection: string; sentDraining: boolean }[] = [];
      const busyLoop = (async () => {
        for (;;) {
          const sentDraining = DRAINING.test(server.output());
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
            busy.push({ ...response, sentDraining });
          } catch (error) {
            return String(error);
          }
        }
      })();
      await expect.poll(() => busy.length).toBeGreaterThanOrEqual(20);

      const exited = once(server.process, "exit");
      server.process.kill("SIGTERM");
      const busyError = await busyLoop;
      agent.destroy();
      // The signal reaches the server some time after kill(): until then it answers as usual,
      // any number of 200s that keep the connection. Once draining, it answers at most one more
      // request on the connection (a 503, or a 200 it had begun, with Connection: close) and
      // closes it; a request sent after it said so is refused, or gets that 503.
      const [last, ...before] = [...busy].reverse();
      for (const response of before)
        expect(response).toMatchObject({ status: 200, connection: "keep-alive" });
      expect([200, 503]).toContain(last?.status);
      if (last?.status === 503) expect(last.connection).toBe("close");
      for (const response of busy.filter((each) => each.sentDraining)) {
        expect(response).toMatchObject({ status: 503, connection: "close" });
      }
      expect(busyError).toMatch(/ECONNREFUSED|ECONNRESET|EPIPE|socket hang up/);

      // Cut off by the drain, not by the exit: the server still answers the request in flight.
      inFlight.write(body.slice(20));
      const answer = await inFlightDone;
      expect(answer).toMatch(/^HTTP\/1\.1 303 /);
      expect(answer).toMatch(/\r\nConnection: close\r\n/i);
      expect(readLeads(join(folder, "data"))).toHaveLength(1);

      // The half-sent request holds the process until the deadline, and no longer: nothing
      // else would let it go before the half-sent request's 60 s headers timeout.
      const [code, signal] = (await exited) as [number | null, string | null];
      expect({ code, signal }).toEqual({ code: 0, signal: null });
      expectExitAtDeadline(server, deadlineS);
      console.log(
        `shutdown: ${busy.length} busy responses [${busy
          .slice(-3)
          .map((each) => `${each.status} ${each.connection}`)
          .join(
            ", ",
          )} last], then ${busyError}; ${server.output().match(/exiting \d+ ms after SIGTERM/)?.[0]}`,
      );
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
      await writeReadByServer(halfSent, "GET / HTTP/1.1\r\n");
      const exited = once(server.process, "exit");
      server.process.kill("SIGTERM");
      const [code] = (await exited) as [number | null];
      expect(code).toBe(0);
      expectExitAtDeadline(server, 2);
    } finally {
      halfSent.destroy();
      await server.stop();
    }
  });

  test("SIGTERM closes an idle keep-alive connection at once, while a request in flight holds the process", async ({
    serverNode,
  }) => {
    const server = await startServer({ node: serverNode });
    const holder = connect(server.port, "127.0.0.1");
    const idle = connect(server.port, "127.0.0.1");
    try {
      // A keep-alive connection, idle once its answer is read whole.
      let received = "";
      idle.setEncoding("latin1");
      idle.on("data", (chunk: string) => {
        received += chunk;
      });
      // What the client sees, in order: without the drain the idle connection would stay open
      // until Node's keep-alive timeout, long after the request in flight is answered.
      const seen: string[] = [];
      const idleEnded = once(idle, "end").then(() => seen.push("idle connection ended"));
      idle.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n\r\n`);
      await expect.poll(() => /\r\n\r\n\{"status":"ok"\}$/.test(received)).toBe(true);
      expect(received).toMatch(/^HTTP\/1\.1 200 /);
      expect(received).toMatch(/\r\nConnection: keep-alive\r\n/i);
      const answered = received;

      // A request in flight on another connection: without it the process would exit at once,
      // and its exit would close every connection.
      const holderChunks: Buffer[] = [];
      holder.on("data", (chunk: Buffer) => holderChunks.push(chunk));
      const holderDone = once(holder, "end").then(() => {
        seen.push("request in flight answered");
        return Buffer.concat(holderChunks).toString("latin1");
      });
      await writeReadByServer(holder, `GET /robots.txt HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n`);

      const exited = once(server.process, "exit");
      server.process.kill("SIGTERM");
      // The request in flight is finished once the server is draining (it closed the idle
      // connection before it said so); its answer shows the server still running.
      await draining(server);
      holder.write("\r\n");
      const held = await holderDone;
      expect(held).toMatch(/^HTTP\/1\.1 200 /);
      expect(held).toMatch(/\r\nConnection: close\r\n/i);
      await idleEnded;
      expect(seen).toEqual(["idle connection ended", "request in flight answered"]);
      // The server ended the idle connection and sent nothing more on it.
      expect(received).toBe(answered);
      const [code] = (await exited) as [number | null];
      expect(code).toBe(0);
      expect(server.output()).toMatch(/^shutdown: done; exiting \d+ ms after SIGTERM$/m);
    } finally {
      holder.destroy();
      idle.destroy();
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
      // A line is written as its answer ends: the client may have read it a moment before.
      const counts = () => {
        const lines = server.output().split("\n");
        return [/^GET \/ 200 \d+ - [\d.]+ ms$/, /^GET \/robots\.txt 200 /, /^GET \/no-such-page 404 /].map(
          (pattern) => lines.filter((line) => pattern.test(line)).length,
        );
      };
      await expect.poll(counts).toEqual([3, 1, 1]);
    } finally {
      await server.stop();
    }
  });
});
