// No browser here: the plain runner, not the page fixtures.
import { expect } from "@playwright/test";
import { startCachingProxy } from "../support/caching-proxy";
import { processTest as test } from "../support/fixtures";
import { exchange, raw, statusLines } from "../support/raw-http";
import { type RunningServer, startServer } from "../support/server-process";

/**
 * The URL the app serves is made by the server from the request target's path and query and a
 * strictly valid `Host` only: no header can move a request to another page, so no header can
 * make a cache store one page under another's key. The server runs as docs/deploying.md sets it
 * up behind nginx (`TRUST_PROXY=127.0.0.1`), so the test client is a trusted proxy.
 */

const SITE_URL = "https://www.nirmaan.digital";
const browser = { "Accept-Encoding": "gzip, deflate, br, zstd" };
const title = (body: Buffer) => /<title>([^<]*)<\/title>/.exec(body.toString("utf8"))?.[1];

/**
 * A cache key by host and URL, reading the host as a URL parser does (up to the first `/`,
 * `?` or `#`) while passing the `Host` on as it came: what a CDN keyed by the site's host name
 * does with a request whose `Host` holds more than a name.
 */
function hostAndTarget(target: string, host: string): string {
  try {
    return `${new URL(`http://${host}`).host}${target}`;
  } catch {
    return `${host}${target}`;
  }
}

const serverEnv = { TRUST_PROXY: "127.0.0.1", SITE_URL };

test.describe("a cache in front", { tag: "@process" }, () => {
  const poisoning: Array<[string, Record<string, string>]> = [
    ["X-Forwarded-Host", { Host: "www.example.com", "X-Forwarded-Host": "www.example.com/privacy-policy#" }],
    [
      "X-Forwarded-Host with a port",
      { Host: "www.example.com", "X-Forwarded-Host": "www.example.com:80/privacy-policy?" },
    ],
    ["Host", { Host: "www.example.com/privacy-policy#" }],
    [
      "X-Forwarded-Proto",
      { Host: "www.example.com", "X-Forwarded-Proto": "http://www.example.com/privacy-policy#" },
    ],
  ];
  for (const [header, headers] of poisoning) {
    test(`a ${header} that holds a path cannot make a cache store another page for /`, async () => {
      // A server of its own: the attempt is its first request, so the app (not the fast path
      // in front of it, fed by an earlier visit of /) answers it.
      const server = await startServer({ env: serverEnv });
      const proxy = await startCachingProxy(server.url, hostAndTarget);
      try {
        // Plain bytes (no Accept-Encoding), so the title can be read.
        const attempt = await raw(proxy.url, "/", headers);
        expect(proxy.originRequests).toEqual(["GET /"]);
        expect(title(attempt.body) ?? "", "the attempt's own answer").not.toMatch(/^Privacy/);

        const visitor = await raw(proxy.url, "/", { Host: "www.example.com" });
        const home = await raw(server.url, "/");
        expect(visitor.status).toBe(200);
        expect(title(visitor.body)).toMatch(/^Nirmaan Digital — /);
        expect(visitor.headers.etag).toBe(home.headers.etag);
      } finally {
        await proxy.stop();
        await server.stop();
      }
    });
  }
});

test.describe("the request's host", { tag: "@process" }, () => {
  let server: RunningServer;

  test.beforeAll(async () => {
    server = await startServer({ env: serverEnv });
  });

  test.afterAll(async () => {
    await server.stop();
  });

  test("a Host that is more than a host name or address with a port answers 400, logged as one plain line", async () => {
    const before = server.output().length;
    const ask = async (hostLines: string, line = "GET / HTTP/1.1") =>
      statusLines((await exchange(server.port, [`${line}\r\n${hostLines}Connection: close\r\n\r\n`])).text);
    const badHosts = [
      "www.example.com/privacy-policy#",
      "www.example.com/",
      "www.example.com?page=2",
      "www.example.com#top",
      "user@www.example.com",
      "www.example.com:80@evil.example",
      "www.example.com evil.example",
      "www.example.com,evil.example",
      "www.example.com:0",
      "www.example.com:65536",
      "www.example.com:99999",
      "www.example.com:http",
      "www.example.com:",
      "www.example.com:80:80",
      ":80",
      "",
      "[::1",
      "[::1]x",
      "[fe80::1%25eth0]",
      "[www.example.com]",
      "1.2.3",
      "0x7f.1",
      "%77ww.example.com",
      "www.example.com\\privacy-policy",
      "-www.example.com",
      "www..example.com",
    ];
    for (const host of badHosts) expect(await ask(`Host: ${host}\r\n`), `Host: ${host}`).toEqual([400]);
    expect(await ask("Host: www.example.com\r\nHost: www.example.com\r\n"), "two Host lines").toEqual([400]);
    expect(await ask("Host: www.example.com\r\nHost: evil.example\r\n"), "two Host lines").toEqual([400]);
    for (const target of [
      "http://user@www.example.com/",
      "http://www.example.com:99999/",
      "http://www.exa%6Dple.com/",
    ]) {
      expect(await ask("Host: www.example.com\r\n", `GET ${target} HTTP/1.1`), target).toEqual([400]);
    }
    // The Host of a request in absolute form is still a Host: it must be valid.
    expect(
      await ask("Host: www.example.com/privacy-policy#\r\n", "GET http://www.example.com/ HTTP/1.1"),
    ).toEqual([400]);

    const log = () => server.output().slice(before);
    await expect.poll(() => log().match(/^GET \/ 400 12 - [\d.]+ ms$/gm)?.length).toBe(badHosts.length + 2);
    expect(log().match(/^GET http:\/\/\S+ 400 12 - [\d.]+ ms$/gm)).toHaveLength(4);
    expect(log()).not.toMatch(/ 500 |Error|\n\s+at /);
  });

  test("a host name, an IPv4 or bracketed IPv6 address, each with or without a port, gets the same page", async () => {
    const home = await raw(server.url, "/", browser);
    for (const host of [
      "www.example.com",
      "WWW.Example.COM.",
      "www.example.com:8080",
      "web_1:3000",
      "localhost",
      "127.0.0.1",
      `127.0.0.1:${server.port}`,
      "[::1]",
      "[::1]:3000",
      "[2001:db8::7]:443",
    ]) {
      const page = await raw(server.url, "/", { ...browser, Host: host });
      expect(page.status, host).toBe(200);
      expect(page.headers.etag, host).toBe(home.headers.etag);
    }
    for (const target of ["http://www.example.com", "http://www.example.com:8080/", "http://[::1]:3000/"]) {
      const answer = await exchange(server.port, [
        `GET ${target} HTTP/1.1\r\nHost: www.example.com\r\nConnection: close\r\n\r\n`,
      ]);
      expect(statusLines(answer.text), target).toEqual([200]);
    }
  });

  test("shared documents, the sitemap, robots.txt and the manifest name SITE_URL, whatever the Host", async () => {
    for (const path of ["/", "/privacy-policy", "/sitemap.xml", "/robots.txt", "/manifest.webmanifest"]) {
      const ours = await raw(server.url, path);
      const theirs = await raw(server.url, path, { Host: "evil.example:8443" });
      expect(theirs.status, path).toBe(200);
      expect(Buffer.compare(theirs.body, ours.body), path).toBe(0);
      expect(theirs.headers.etag, path).toBe(ours.headers.etag);
      expect(theirs.body.toString("utf8"), path).not.toMatch(/evil\.example|127\.0\.0\.1/);
    }
    const home = (await raw(server.url, "/", { Host: "evil.example" })).body.toString("utf8");
    expect(home).toContain(`<link rel="canonical" href="${SITE_URL}/"/>`);
    expect(home).toContain(`<meta property="og:url" content="${SITE_URL}/"/>`);
    expect(home).toContain(`"@id":"${SITE_URL}/#organization"`);
    const sitemap = (await raw(server.url, "/sitemap.xml", { Host: "evil.example" })).body.toString("utf8");
    expect(sitemap).toContain(`<loc>${SITE_URL}/privacy-policy</loc>`);
  });
});
