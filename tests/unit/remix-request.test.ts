import { once } from "node:events";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureSource } from "~/enquiry/source.server";
import { createRemixRequest } from "../../server/remix-handler";
import { settleRequestUrl } from "../../server/request-line";

const SITE = "https://www.nirmaan.digital";

// The server's own order: the request line and Host settled, then Express; the app's answer
// is the URL it was given and the source it read from the Referer.
let server: Server;
let port: number;

beforeAll(async () => {
  const app = express();
  app.all("*", (req, res) => {
    const request = createRemixRequest(req, res);
    res.json({ url: request.url, source: captureSource(request, new Map(), SITE) ?? null });
  });
  server = createServer((request, response) => {
    if (!settleRequestUrl(request, response, false)) app(request, response);
  });
  server.listen(0, "::1");
  await once(server, "listening");
  port = (server.address() as AddressInfo).port;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** A POST to the server on ::1 with the given `Host` and `Referer`, as the app sees it. */
function post(host: string, referer: string): Promise<{ url: string; source: unknown }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: "::1", port, path: "/?index", method: "POST", headers: { Host: host, Referer: referer } },
      (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          body += chunk;
        });
        response.on("end", () => resolve(JSON.parse(body)));
      },
    );
    request.on("error", reject);
    request.end();
  });
}

describe("the URL the app is given", () => {
  it("keeps the port of an IPv6 literal Host, so the form's page there is this site's own", async () => {
    const origin = `http://[::1]:${port}`;
    expect(await post(`[::1]:${port}`, `${origin}/?utm_source=newsletter&utm_medium=email`)).toEqual({
      url: `${origin}/?index`,
      source: { landing: "/", parameters: { utm_source: "newsletter", utm_medium: "email" } },
    });
  });

  it("is the settled Host whole, with or without a port, for every kind of host", async () => {
    for (const [host, origin] of <[string, string][]>[
      ["[2001:DB8::7]:8443", "http://[2001:db8::7]:8443"],
      ["[::1]", "http://[::1]"],
      ["127.0.0.1:3000", "http://127.0.0.1:3000"],
      ["www.example.com", "http://www.example.com"],
      ["WWW.example.com:8080", "http://www.example.com:8080"],
    ]) {
      expect((await post(host, `${origin}/`)).url, host).toBe(`${origin}/?index`);
    }
  });
});
