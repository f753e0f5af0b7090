import {
  type FakeGitHub,
  fakeGitHub,
  FAKE_SECRET as SECRET,
  FAKE_TOKEN as TOKEN,
} from "../support/fake-github";
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

test.describe("GitHub sign-in, against a fake GitHub Enterprise server on a loopback address", () => {
  // The fake GitHub and the site are on ports of their own. The tests stop at the token: the
  // fake API answers Decap's next steps, asking who signed in and whether they may write, with
  // 401 (which Decap reports as a repository it cannot find, once it gets there).
  test.use({
    allowedProblems: [
      /^request to another origin: http:\/\/127\.0\.0\.1:\d+\/|^HTTP 40[01] |^console error: (?:TypeError: Failed to fetch|Failed to load .*: 401|Problem fetching repo data from GitHub|API_ERROR: Repo "[^"]+" not found)/,
    ],
  });
  let github: FakeGitHub;
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
        CMS_GITHUB_API_ROOT: github.apiRoot,
      },
    });
  });
  test.afterAll(async () => {
    await site?.stop();
    await github?.close();
  });

  test("Decap's sign-in window gets a token, posts it to /admin on the site's own origin, and the editor takes it to the configured API only", async ({
    page,
  }) => {
    const toGitHubCom: string[] = [];
    await page.route("https://api.github.com/**", (route) => {
      toGitHubCom.push(route.request().url());
      return route.abort();
    });
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
    // The editor asks the API root it was configured with who signed in, with that token.
    await expect.poll(() => github.apiCalls.map((call) => call.path)).toContain("/api/v3/user");
    expect(new Set(github.apiCalls.map((call) => call.authorization))).toEqual(new Set([`token ${TOKEN}`]));
    expect(toGitHubCom).toEqual([]);
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
    // The editor may reach the configured API, and no other GitHub.
    expect(page.headers()["content-security-policy"]).toContain(`connect-src 'self' blob: ${github.url};`);
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
        api_root: github.apiRoot,
      },
      publish_mode: "editorial_workflow",
      media_folder: "content/images",
      public_folder: "images",
    });
    expect(config).not.toHaveProperty("local_backend");
  });
});
