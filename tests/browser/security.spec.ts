import { createHash } from "node:crypto";
import { request as httpRequest } from "node:http";
import { enquiryBody, NOTICE, validEnquiry, waitForHydration } from "../support/enquiry-page";
import { expect, test } from "../support/fixtures";
import { startServer } from "../support/server-process";

/** Every kind of response the app itself produces: documents, data, and resource routes. */
const sharedDocuments = ["/", "/terms-conditions", "/privacy-policy", "/cookie-policy"];
const perVisitorDocuments: Array<[string, string]> = [
  ["not found", "/no-such-page"],
  ["a query", "/?page=2"],
  ["a sender's landing URL", "/?enquiry=not-a-token"],
];
const resources = ["/healthz", "/sitemap.xml", "/robots.txt", "/manifest.webmanifest", "/_root.data"];

const commonHeaders = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "strict-origin-when-cross-origin",
  "strict-transport-security": "max-age=63072000; includeSubDomains",
};

function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy.split(";").map((part) => {
      const [name = "", ...values] = part.trim().split(/\s+/);
      return [name, values] as const;
    }),
  );
}

/** The parts every document's policy shares, whatever runs its scripts. */
function expectDocumentPolicy(headers: Record<string, string>) {
  expect(headers).toMatchObject(commonHeaders);
  expect(headers["permissions-policy"]).toContain("camera=()");
  expect(headers["x-powered-by"]).toBeUndefined();
  // No browsing context group of its own, and so no new process on every arrival (decision 040).
  expect(headers["cross-origin-opener-policy"]).toBeUndefined();
  expect(headers["content-security-policy-report-only"]).toBeUndefined();
  const policy = directives(headers["content-security-policy"] ?? "");
  expect(policy.get("script-src")?.at(-1)).toBe("'strict-dynamic'");
  expect(policy.get("default-src")).toEqual(["'self'"]);
  expect(policy.get("object-src")).toEqual(["'none'"]);
  expect(policy.get("base-uri")).toEqual(["'none'"]);
  expect(policy.get("form-action")).toEqual(["'self'"]);
  expect(policy.get("frame-ancestors")).toEqual(["'none'"]);
  expect(policy.get("img-src")).toEqual(["'self'", "data:"]);
  expect(headers["content-security-policy"]).not.toMatch(/unsafe-inline|unsafe-eval/);
  return policy.get("script-src") ?? [];
}

function expectNoInlineCodeOrStyle(html: string) {
  expect(html).not.toMatch(/<[a-z][^>]*\sstyle=/i);
  expect(html).not.toMatch(/<[a-z][^>]*\son[a-z]+=/i);
}

const inlineScripts = (html: string) => [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("base64");

for (const path of sharedDocuments) {
  test(`shared document ${path} runs its own inline scripts by hash and carries the security headers`, async ({
    request,
  }) => {
    const response = await request.get(path);
    const headers = response.headers();
    const scriptSrc = expectDocumentPolicy(headers);
    expect(scriptSrc.slice(0, -1).every((source) => /^'sha256-[A-Za-z0-9+/]{43}='$/.test(source))).toBe(true);
    const html = await response.text();
    expect(html).not.toMatch(/<[a-z][^>]*\snonce=/i);
    const runnable = inlineScripts(html).filter(
      ([, attributes]) => !/application\/ld\+json/.test(attributes ?? ""),
    );
    expect(runnable.length).toBeGreaterThan(0);
    // Exactly the page's scripts are allowed: each one's hash, and nothing more.
    expect(new Set(runnable.map(([, , text]) => `'sha256-${sha256(text ?? "")}'`))).toEqual(
      new Set(scriptSrc.slice(0, -1)),
    );
    expectNoInlineCodeOrStyle(html);
  });
}

for (const [label, path] of perVisitorDocuments) {
  test(`per-visitor document (${label}) carries a nonce CSP on every script`, async ({ request }) => {
    const response = await request.get(path);
    const scriptSrc = expectDocumentPolicy(response.headers());
    expect(scriptSrc).toHaveLength(2);
    expect(scriptSrc[0]).toMatch(/^'nonce-[A-Za-z0-9+/]{22}=='$/);
    const nonce = scriptSrc[0]?.slice("'nonce-".length, -1);
    const html = await response.text();
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    expectNoInlineCodeOrStyle(html);
  });
}

for (const path of resources) {
  test(`resource ${path} carries the security headers and a policy that loads nothing`, async ({
    request,
  }) => {
    const response = await request.get(path);
    expect(response.status()).toBe(200);
    const headers = response.headers();
    expect(headers).toMatchObject(commonHeaders);
    expect(headers["x-powered-by"]).toBeUndefined();
    expect(directives(headers["content-security-policy"] ?? "").get("default-src")).toEqual(["'none'"]);
  });
}

test("a per-visitor document gets a fresh nonce on every response", async ({ request }) => {
  const nonces = new Set<string>();
  for (let i = 0; i < 5; i++) {
    const response = await request.get("/?page=5");
    const csp = response.headers()["content-security-policy"] ?? "";
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1] ?? "";
    const html = await response.text();
    expect(html.match(/nonce="([^"]+)"/g)?.every((attribute) => attribute === `nonce="${nonce}"`)).toBe(true);
    nonces.add(nonce);
  }
  expect(nonces.size).toBe(5);
});

test.describe("hydration", () => {
  // The client-side navigation below ends on the not-found page, whose data request is a real 404.
  test.use({ allowedProblems: [/^HTTP 404 .*\/no-such-page/] });

  test("the home page, a shared document, hydrates under its hash CSP", async ({ page }) => {
    const response = await page.goto("/");
    expect(response?.headers()["content-security-policy"]).toMatch(/'sha256-[^']+' 'strict-dynamic'/);
    // Remix creates its router only when the nonce'd module scripts ran.
    await page.waitForFunction(() => "__remixRouter" in window);
    await expect(page.locator("html")).toHaveClass(/\bjs\b/);
    // The router works: a client-side navigation to the not-found page renders without a reload.
    await page.evaluate(() => {
      (window as unknown as { marker: boolean }).marker = true;
    });
    await page.evaluate(async () => {
      const router = (window as unknown as { __remixRouter: { navigate: (to: string) => Promise<void> } })
        .__remixRouter;
      await router.navigate("/no-such-page");
    });
    await expect(page.locator('img[alt^="Page not found"]')).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { marker?: boolean }).marker)).toBe(true);
  });

  test("a page with a query hydrates under its nonce CSP", async ({ page }) => {
    // The home page: the policy pages send no bundle to hydrate (decision 038).
    const response = await page.goto("/?page=2");
    expect(response?.headers()["content-security-policy"]).toMatch(/'nonce-[^']+' 'strict-dynamic'/);
    await waitForHydration(page);
  });

  test("the page after a no-JS enquiry, with its notice, hydrates under its nonce CSP", async ({ page }) => {
    // The form posted without JavaScript: the redirect names the sender's landing URL.
    const posted = await page.request.post("/?index", { form: enquiryBody(validEnquiry()), maxRedirects: 0 });
    expect(posted.status()).toBe(303);
    const response = await page.goto(posted.headers().location ?? "");
    const headers = response?.headers() ?? {};
    expect(headers["content-security-policy"]).toMatch(/'nonce-[^']+' 'strict-dynamic'/);
    expect(headers["cache-control"]).toBe("private, no-store");
    expect(headers.etag).toBeUndefined();
    await expect(page.getByText(NOTICE.sent)).toBeVisible();
    await waitForHydration(page);
  });
});

/** The security headers every response of the app carries, whatever made it. */
function expectSecurityHeaders(headers: Record<string, string>) {
  expect(headers).toMatchObject({ ...commonHeaders, "x-frame-options": "DENY" });
  expect(headers["permissions-policy"]).toContain("camera=()");
  expect(directives(headers["content-security-policy"] ?? "").get("frame-ancestors")).toEqual(["'none'"]);
}

test("the enquiry's 303 redirect, data responses and /__manifest carry the security headers", async ({
  request,
}) => {
  const redirect = await request.post("/?index", { form: enquiryBody(validEnquiry()), maxRedirects: 0 });
  expect(redirect.status()).toBe(303);
  expectSecurityHeaders(redirect.headers());
  const token = new URL(redirect.headers().location ?? "", "http://x").searchParams.get("enquiry");
  expect(token).toBeTruthy();

  for (const path of ["/_root.data", "/_index.data", "/__manifest?p=%2F&version=x"]) {
    const response = await request.get(path);
    expectSecurityHeaders(response.headers());
  }
  // The notice's token makes the data this visitor's alone.
  for (const path of [
    `/_root.data?enquiry=${token}`,
    `/_root.data?enquiry=${token}&_routes=routes%2F_index`,
  ]) {
    const response = await request.get(path);
    expect(response.status()).toBe(200);
    expect(response.headers()["cache-control"]).toBe("private, no-store");
    expectSecurityHeaders(response.headers());
  }
});

/** A raw request (Node's client sends any method, TRACE and TRACK included). */
function raw(url: string, method: string): Promise<{ status: number; headers: Record<string, string> }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method, agent: false }, (response) => {
      response.resume();
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers as Record<string, string> }),
      );
    });
    request.on("error", reject);
    request.end();
  });
}

test("methods other than GET, HEAD and POST answer 405 with Allow on every route, without a stack trace", async () => {
  const server = await startServer();
  try {
    const methods = ["TRACE", "TRACK", "PUT", "PATCH", "DELETE", "OPTIONS"];
    const paths = ["/", "/?index", "/healthz", "/robots.txt", "/no-such-page", "/favicon.ico", "/_root.data"];
    let answered = 0;
    for (const method of methods) {
      for (const path of paths) {
        const response = await raw(`${server.url}${path}`, method);
        expect(response.status, `${method} ${path}`).toBe(405);
        expect(response.headers.allow).toBe("GET, HEAD, POST");
        expectSecurityHeaders(response.headers);
        answered += 1;
      }
    }
    expect(answered).toBe(42);
    expect((await raw(`${server.url}/`, "GET")).status).toBe(200);
    const output = server.output();
    expect(output).not.toMatch(/TypeError|\n\s+at /);
    expect(output).toMatch(/^TRACE \/ 405 /m);
  } finally {
    await server.stop();
  }
});
