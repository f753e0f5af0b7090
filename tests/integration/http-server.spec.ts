import { Agent, request as httpRequest } from "node:http";
// No browser here: the plain runner, not the page fixtures.
import { expect } from "@playwright/test";
import { enquiryBody, validEnquiry } from "../support/enquiry-page";
import { processTest as test } from "../support/fixtures";
import { exchange, statusLines } from "../support/raw-http";
import { startServer } from "../support/server-process";

/**
 * What the server (server/index.ts) does below the app, seen from raw sockets: odd request
 * lines, parser errors on reused connections, the request log, who the client is behind a
 * proxy, and where it listens.
 */

/** A POST of one enquiry, from `localAddress` with `headers`; the status. */
function postEnquiry(port: number, headers: Record<string, string>, localAddress = "127.0.0.1") {
  const body = new URLSearchParams(enquiryBody(validEnquiry())).toString();
  return new Promise<{ status: number }>((resolve, reject) => {
    const request = httpRequest(
      {
        host: "127.0.0.1",
        port,
        path: "/?index",
        method: "POST",
        localAddress,
        agent: false,
        headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
      },
      (response) => {
        response.resume();
        response.on("end", () => resolve({ status: response.statusCode ?? 0 }));
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

test.describe("the HTTP server", { tag: "@process" }, () => {
  test("odd request lines get a clean answer: absolute form served as its path, anything else 400, never a 500 or a stack trace", async ({
    serverNode,
  }) => {
    const server = await startServer({ node: serverNode });
    try {
      const host = `Host: 127.0.0.1:${server.port}\r\nConnection: close\r\n`;
      const ask = async (line: string, headers = host) =>
        (await exchange(server.port, [`${line}\r\n${headers}\r\n`])).text;

      const originForm = await ask("GET /privacy-policy HTTP/1.1");
      const absoluteForm = await ask("GET http://www.example.com/privacy-policy HTTP/1.1");
      expect(statusLines(absoluteForm)).toEqual([200]);
      const etag = (text: string) => /\r\nETag: (\S+)/i.exec(text)?.[1];
      expect(etag(absoluteForm)).toBeDefined();
      expect(etag(absoluteForm)).toBe(etag(originForm));

      for (const line of [
        "GET * HTTP/1.1",
        "GET www.example.com:80 HTTP/1.1",
        "GET ftp://www.example.com/ HTTP/1.1",
        "POST * HTTP/1.1",
      ]) {
        const answer = await ask(line);
        expect(statusLines(answer), line).toEqual([400]);
        expect(answer, line).toMatch(/\r\nConnection: close\r\n/i);
        expect(answer, line).toMatch(/\r\nX-Content-Type-Options: nosniff\r\n/i);
      }
      for (const badHost of ["Host: a b\r\n", "Host: [::1\r\n"]) {
        expect(statusLines(await ask("GET / HTTP/1.1", `${badHost}Connection: close\r\n`)), badHost).toEqual([
          400,
        ]);
      }
      expect(statusLines(await ask("OPTIONS * HTTP/1.1"))).toEqual([405]);

      const output = server.output();
      expect(output).not.toMatch(/ 500 |Error:|\n\s+at /);
      expect(output).toMatch(/^GET \/privacy-policy 200 /m);
      expect(output).toMatch(/^GET \* 400 /m);
    } finally {
      await server.stop();
    }
  });

  test("a path with a malformed percent escape answers 400 with one plain log line, for documents, files and data alike", async ({
    serverNode,
  }) => {
    const server = await startServer({ node: serverNode });
    try {
      // The request line sent, and the line logged for it.
      const malformed = [
        ["GET /%ZZ", "GET /%ZZ"],
        ["GET /x%", "GET /x%"],
        ["GET /%E0%A4%A", "GET /%E0%A4%A"],
        ["GET /%FF", "GET /%FF"],
        ["GET /privacy-policy/%C0%AF", "GET /privacy-policy/%C0%AF"],
        ["GET /build/%ZZ.js", "GET /build/%ZZ.js"],
        ["GET /favicon.ico%", "GET /favicon.ico%"],
        ["GET /%ZZ?_data=root", "GET /%ZZ?_data="],
        ["GET /%ZZ.data", "GET /%ZZ.data"],
        ["HEAD /%ZZ", "HEAD /%ZZ"],
        ["POST /%ZZ?index", "POST /%ZZ?index="],
      ];
      const before = server.output().length;
      const answers = await Promise.all(
        malformed.map(([request]) =>
          exchange(server.port, [`${request} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`]),
        ),
      );
      for (const [index, [request]] of malformed.entries()) {
        expect(statusLines(answers[index]?.text ?? ""), request).toEqual([400]);
      }
      // Only the refusals: the start-up's /healthz line may still be on its way.
      const refusals = () =>
        server
          .output()
          .slice(before)
          .split("\n")
          .filter((line) => / 400 /.test(line));
      await expect.poll(() => refusals().length).toBe(malformed.length);
      const lines = refusals();
      for (const [request, logged] of malformed) {
        expect(
          lines.filter((line) => line.startsWith(`${logged} 400 12 - `) && / [\d.]+ ms$/.test(line)),
          request,
        ).toHaveLength(1);
      }
      expect(server.output()).not.toMatch(/ 500 |Error|\n\s+at /);
    } finally {
      await server.stop();
    }
  });

  test("a parser error on a reused keep-alive connection (TRACK, a bad header) is answered readably with Connection: close, never reset", async ({
    serverNode,
  }) => {
    const server = await startServer({ node: serverNode });
    try {
      const host = `Host: 127.0.0.1:${server.port}\r\n`;
      const track = await exchange(server.port, [
        `GET /robots.txt HTTP/1.1\r\n${host}\r\n`,
        `TRACK / HTTP/1.1\r\n${host}\r\n`,
      ]);
      expect(track.error).toBeUndefined();
      expect(statusLines(track.text)).toEqual([200, 405]);
      const refusal = track.text.slice(track.text.lastIndexOf("HTTP/1.1 "));
      expect(refusal).toMatch(/\r\nAllow: GET, HEAD, POST\r\n/i);
      expect(refusal).toMatch(/\r\nConnection: close\r\n/i);
      expect(refusal).toMatch(/\r\n\r\nMethod Not Allowed\n$/);

      const badHeader = await exchange(server.port, [
        `GET /robots.txt HTTP/1.1\r\n${host}\r\n`,
        `GET / HTTP/1.1\r\n${host}Bad Header: x\r\n\r\n`,
      ]);
      expect(badHeader.error).toBeUndefined();
      expect(statusLines(badHeader.text)).toEqual([200, 400]);
      expect(badHeader.text.slice(badHeader.text.lastIndexOf("HTTP/1.1 "))).toMatch(
        /\r\nConnection: close\r\n/i,
      );

      // A pooled client reads the 405 on its reused connection instead of ECONNRESET.
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      const send = (method: string) =>
        new Promise<number>((resolve, reject) => {
          const request = httpRequest(`${server.url}/robots.txt`, { method, agent }, (response) => {
            response.resume();
            response.on("end", () => resolve(response.statusCode ?? 0));
          });
          request.on("error", reject);
          request.end();
        });
      expect([await send("GET"), await send("TRACK"), await send("GET")]).toEqual([200, 405, 200]);
      agent.destroy();
      expect(server.output()).toMatch(/^TRACK \/ 405 /m);
    } finally {
      await server.stop();
    }
  });

  test("CONNECT answers 405 with Allow and Connection: close, logged as one request line", async ({
    serverNode,
  }) => {
    const server = await startServer({ node: serverNode });
    try {
      const connect = await exchange(server.port, [
        "CONNECT www.example.com:443 HTTP/1.1\r\nHost: www.example.com:443\r\n\r\n",
      ]);
      expect(statusLines(connect.text)).toEqual([405]);
      expect(connect.text).toMatch(/\r\nAllow: GET, HEAD, POST\r\n/i);
      expect(connect.text).toMatch(/\r\nConnection: close\r\n/i);
      expect(connect.text).toMatch(/\r\nX-Content-Type-Options: nosniff\r\n/i);
      expect(connect.text).toMatch(/\r\n\r\nMethod Not Allowed\n$/);
      expect(connect.serverEnded).toBe(true);
      await expect.poll(() => server.output()).toMatch(/^CONNECT www\.example\.com:443 405 19 - [\d.]+ ms$/m);
    } finally {
      await server.stop();
    }
  });

  test("a request pipelined behind a GET that the server refuses (TRACK, CONNECT) waits: the GET gets its whole answer first", async ({
    serverNode,
  }) => {
    const server = await startServer({ node: serverNode });
    try {
      const host = `Host: 127.0.0.1:${server.port}\r\n`;
      // A page rendered for this request alone, so its answer is not ready when the next request is read.
      const get = `GET /?page=2 HTTP/1.1\r\n${host}\r\n`;
      for (const [refused, line] of [
        ["TRACK", `TRACK / HTTP/1.1\r\n${host}\r\n`],
        ["CONNECT", `CONNECT www.example.com:443 HTTP/1.1\r\n${host}\r\n`],
      ] as const) {
        const before = server.output().length;
        const answer = await exchange(server.port, [`${get}${get}${line}`]);
        expect(statusLines(answer.text), refused).toEqual([200, 200, 405]);
        const refusal = answer.text.lastIndexOf("HTTP/1.1 405 ");
        // Both pages whole (chunked: each ends with its last, empty chunk) before the refusal.
        expect(answer.text.slice(0, refusal).match(/\r\n0\r\n\r\n/g), refused).toHaveLength(2);
        expect(answer.text.slice(refusal)).toMatch(/\r\nConnection: close\r\n/i);
        expect(answer.serverEnded).toBe(true);
        await expect.poll(() => server.output().slice(before).match(/ 405 /g)?.length).toBe(1);
        const log = server.output().slice(before);
        expect(log.match(/^GET \/\?page= 200 /gm), refused).toHaveLength(2);
        expect(log, refused).toMatch(new RegExp(`^${refused} \\S+ 405 19 `, "m"));
        expect(log, refused).not.toMatch(/^GET .* 405 /m);
      }
    } finally {
      await server.stop();
    }
  });

  test("the request log shows a query's parameter names, never their values", async ({ serverNode }) => {
    const server = await startServer({ node: serverNode });
    try {
      await fetch(`${server.url}/?utm_source=spring-newsletter&email=asha%40example.in&flag`);
      // The line is written as the answer ends: the client may have read it a moment before.
      await expect.poll(() => server.output()).toMatch(/^GET \/\?utm_source=&email=&flag= 200 /m);
      expect(server.output()).not.toMatch(/spring-newsletter|asha/);
    } finally {
      await server.stop();
    }
  });

  test("TRUST_PROXY as a list: only the proxy says who the client is", async ({ serverNode }) => {
    // The proxy is 127.0.0.1; a client connecting from 127.0.0.16 stands for anyone else.
    const server = await startServer({
      node: serverNode,
      env: { TRUST_PROXY: "127.0.0.1, 10.0.0.0/8", ENQUIRY_RATE_LIMIT: "2" },
    });
    try {
      const forged = (index: number) => ({ "X-Forwarded-For": `203.0.113.${index}` });
      // Straight to the app's port: a forged X-Forwarded-For buys no fresh budget.
      const direct = [];
      for (let index = 0; index < 3; index += 1)
        direct.push((await postEnquiry(server.port, forged(index), "127.0.0.16")).status);
      expect(direct).toEqual([303, 303, 429]);
      // Through the proxy: each client the proxy names has a budget of its own.
      const proxied = [];
      for (let index = 0; index < 3; index += 1)
        proxied.push((await postEnquiry(server.port, forged(index))).status);
      expect(proxied).toEqual([303, 303, 303]);
    } finally {
      await server.stop();
    }
  });

  test("HOST sets the listen address", async ({ serverNode }) => {
    const server = await startServer({ node: serverNode, env: { HOST: "127.0.0.1" } });
    try {
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      await expect(fetch(`http://127.0.0.16:${server.port}/healthz`)).rejects.toThrow();
    } finally {
      await server.stop();
    }
  });
});
