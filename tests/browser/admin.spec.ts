import { once } from "node:events";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "../support/fixtures";
import { freePort, type RunningServer, startServer } from "../support/server-process";

const publicPages = ["/", "/terms-conditions", "/privacy-policy", "/cookie-policy"];

test.describe("/admin on a server without the editor configured", () => {
  test("answers 503 naming the fix, no-store and noindex", async ({ request }) => {
    const response = await request.get("/admin/");
    expect(response.status()).toBe(503);
    expect(await response.text()).toContain("docs/configuration.md");
    expect(response.headers()).toMatchObject({
      "cache-control": "no-store",
      "x-robots-tag": "noindex, nofollow",
    });
  });

  test("no public page loads a byte of it, and their policy is as strict as before", async ({ page }) => {
    const requested: string[] = [];
    page.on("request", (request) => requested.push(new URL(request.url()).pathname));
    for (const path of publicPages) {
      const response = await page.goto(path);
      const policy = response?.headers()["content-security-policy"] ?? "";
      expect(policy.replace(/script-src [^;]*;/, "script-src …;")).toBe(
        "default-src 'self'; script-src …; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; manifest-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
      );
      expect(policy).toMatch(/script-src (?:'sha256-[^']+' )+'strict-dynamic';/);
      expect(await response?.text()).not.toMatch(/decap|\/admin/i);
    }
    expect(requested.filter((path) => path.startsWith("/admin") || /decap/i.test(path))).toEqual([]);
  });

  test("the home page does not request the Devanagari font, though its privacy notice has Hindi text", async ({
    page,
  }) => {
    const fonts: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "font" || /devanagari/i.test(request.url())) fonts.push(request.url());
    });
    await page.goto("/");
    await expect(page.locator('[lang="hi"]').first()).toBeAttached();
    await page.evaluate(() => document.fonts.ready);
    expect(fonts.filter((url) => /devanagari/i.test(url))).toEqual([]);
    expect(fonts.length).toBeGreaterThan(0);
  });
});

/** A fake GitHub: its authorisation page sends the browser straight back with a code; its token endpoint trades that code for a token. */
async function fakeGitHub() {
  const exchanges: Record<string, unknown>[] = [];
  const authorizations: URLSearchParams[] = [];
  const server: Server = createServer(async (request: IncomingMessage, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    if (url.pathname === "/login/oauth/authorize") {
      authorizations.push(url.searchParams);
      const back = new URL(url.searchParams.get("redirect_uri") ?? "");
      back.search = new URLSearchParams({
        code: "code-from-github",
        state: url.searchParams.get("state") ?? "",
      }).toString();
      response.writeHead(302, { Location: back.href }).end();
      return;
    }
    if (url.pathname === "/login/oauth/access_token" && request.method === "POST") {
      let body = "";
      for await (const chunk of request) body += chunk;
      const exchange = JSON.parse(body) as Record<string, unknown>;
      exchanges.push(exchange);
      const good = exchange.client_secret === SECRET && exchange.code === "code-from-github";
      response.writeHead(200, { "Content-Type": "application/json" });
      response.end(
        JSON.stringify(
          good
            ? { access_token: TOKEN, token_type: "bearer", scope: "repo" }
            : { error: "bad_verification_code" },
        ),
      );
      return;
    }
    response.writeHead(404).end();
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    server,
    exchanges,
    authorizations,
  };
}

const SECRET = "fake-oauth-app-secret-0123456789abcdef";
const TOKEN = "gho_faketoken0123456789";

test.describe("GitHub sign-in, against a fake GitHub on a loopback address", () => {
  // The fake GitHub and the site are on ports of their own. The tests stop at the token: Decap's
  // next step, asking GitHub's API who signed in, is refused here (no network in the tests).
  test.use({
    allowedProblems: [
      /^request to another origin: (?:http:\/\/127\.0\.0\.1:\d+|https:\/\/api\.github\.com)\/|^HTTP 40[01] |^console error: TypeError: Failed to fetch/,
    ],
  });
  let github: Awaited<ReturnType<typeof fakeGitHub>>;
  let site: RunningServer;

  test.beforeAll(async () => {
    github = await fakeGitHub();
    const port = await freePort();
    site = await startServer({
      port,
      env: {
        SITE_URL: `http://127.0.0.1:${port}`,
        CMS_GITHUB_REPO: "nirmaan/site",
        CMS_GITHUB_CLIENT_ID: "Iv1.fakeclient",
        CMS_GITHUB_CLIENT_SECRET: SECRET,
        CMS_GITHUB_OAUTH_URL: github.url,
      },
    });
  });
  test.afterAll(async () => {
    await site?.stop();
    github?.server.close();
  });

  test("Decap's sign-in window gets a token and posts it to /admin on the site's own origin", async ({
    page,
  }) => {
    await page.route("https://api.github.com/**", (route) => route.abort());
    await page.goto(`${site.url}/admin/`);
    // What the editor receives, recorded beside Decap's own listener.
    await page.evaluate(() => {
      const received: { data: string; origin: string }[] = [];
      (window as unknown as { received: typeof received }).received = received;
      window.addEventListener("message", (event) =>
        received.push({ data: String(event.data), origin: event.origin }),
      );
    });
    const popup = page.waitForEvent("popup");
    await page.getByRole("button", { name: /login with github/i }).click();
    await (await popup).waitForEvent("close", { timeout: 15_000 }).catch(() => undefined);
    await expect
      .poll(() =>
        page.evaluate(() =>
          (window as unknown as { received: { data: string }[] }).received.map((m) => m.data),
        ),
      )
      .toContain(`authorization:github:success:${JSON.stringify({ token: TOKEN, provider: "github" })}`);
    const messages = await page.evaluate(
      () => (window as unknown as { received: { origin: string }[] }).received,
    );
    expect(new Set(messages.map((message) => message.origin))).toEqual(new Set([site.url]));

    expect(github.authorizations).toHaveLength(1);
    const asked = github.authorizations[0];
    expect(asked?.get("client_id")).toBe("Iv1.fakeclient");
    expect(asked?.get("redirect_uri")).toBe(`${site.url}/admin/callback`);
    expect(asked?.get("scope")).toBe("repo");
    expect(github.exchanges).toEqual([
      {
        client_id: "Iv1.fakeclient",
        client_secret: SECRET,
        code: "code-from-github",
        redirect_uri: `${site.url}/admin/callback`,
      },
    ]);
    expect(site.output()).not.toContain(SECRET);
    expect(site.output()).not.toContain(TOKEN);
  });

  test("a callback whose state is forged, or used a second time, gets no token", async ({ request }) => {
    const auth = await request.get(`${site.url}/admin/auth?provider=github&scope=repo`, { maxRedirects: 0 });
    expect(auth.status()).toBe(302);
    const state = new URL(auth.headers().location ?? "").searchParams.get("state") ?? "";
    const forged = await request.get(
      `${site.url}/admin/callback?code=code-from-github&state=${state.slice(0, -2)}xx`,
    );
    expect(forged.status()).toBe(400);
    expect(await forged.text()).not.toContain(TOKEN);
    const first = await request.get(
      `${site.url}/admin/callback?code=code-from-github&state=${encodeURIComponent(state)}`,
    );
    expect(first.status()).toBe(200);
    expect(await first.text()).toContain(TOKEN);
    expect(first.headers()["content-security-policy"]).toMatch(/^default-src 'none'; script-src 'nonce-/);
    const again = await request.get(
      `${site.url}/admin/callback?code=code-from-github&state=${encodeURIComponent(state)}`,
    );
    expect(again.status()).toBe(400);
    expect(await again.text()).not.toContain(TOKEN);
    await expect
      .poll(() => site.output())
      .toContain("admin: a GitHub sign-in was refused: its state is used");
    expect(site.output()).toContain("admin: a GitHub sign-in was refused: its state is forged");
    expect(site.output()).not.toContain("code-from-github");
  });

  test("/admin runs under its own policy, no-store and noindex, with the GitHub backend", async ({
    request,
  }) => {
    const page = await request.get(`${site.url}/admin/`);
    expect(page.headers()).toMatchObject({
      "cache-control": "no-store",
      "x-robots-tag": "noindex, nofollow",
      "cross-origin-opener-policy": "same-origin-allow-popups",
    });
    expect(page.headers()["content-security-policy"]).toContain("script-src 'self' 'unsafe-eval'");
    const html = await page.text();
    expect(html).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(html).toMatch(/<meta name="cms-preview-style" content="\/build\/_assets\/app-[A-Z0-9]+\.css">/);
    const config = (await (await request.get(`${site.url}/admin/config.yml`)).json()) as Record<
      string,
      unknown
    >;
    expect(config).toMatchObject({
      backend: {
        name: "github",
        repo: "nirmaan/site",
        branch: "main",
        base_url: site.url,
        auth_endpoint: "admin/auth",
      },
      publish_mode: "editorial_workflow",
      media_folder: "content/images",
      public_folder: "images",
    });
    expect(config).not.toHaveProperty("local_backend");
  });
});
