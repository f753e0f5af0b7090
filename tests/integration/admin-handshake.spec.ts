// No browser here: the plain runner, not the page fixtures.
import { expect } from "@playwright/test";
import { SIGN_INS_PER_CLIENT, SIGN_INS_SITE_WIDE } from "../../server/admin/sign-in-limits";
import {
  bystander,
  FAKE_CODE,
  FAKE_SECRET,
  FAKE_TOKEN,
  type FakeGitHub,
  fakeGitHub,
} from "../support/fake-github";
import { processTest as test } from "../support/fixtures";
import { freePort, type RunningServer, startServer } from "../support/server-process";

/**
 * /admin's GitHub sign-in (server/admin/oauth.ts) trusts nothing it did not configure, seen from
 * outside the built server against a fake GitHub Enterprise server: no redirect is followed with
 * the secret, token exchanges are limited, GitHub's words reach the log as one escaped line, and
 * an /admin that is off serves its 503 and nothing else.
 */

/** A site whose /admin signs in with `github`, on a port chosen first so that SITE_URL is its own. */
async function signInSite(github: FakeGitHub, env: Record<string, string> = {}): Promise<RunningServer> {
  const port = await freePort();
  return startServer({
    port,
    env: {
      SITE_URL: `http://127.0.0.1:${port}`,
      CMS_GITHUB_REPO: "nirmaan/site",
      CMS_GITHUB_CLIENT_ID: "Iv1.fakeclient",
      CMS_GITHUB_CLIENT_SECRET: FAKE_SECRET,
      CMS_GITHUB_OAUTH_URL: github.url,
      CMS_GITHUB_API_ROOT: github.apiRoot,
      ...env,
    },
  });
}

/** What Decap's sign-in window does: /admin/auth for a state, then the callback GitHub sends it back to. */
async function signIn(site: RunningServer, headers: Record<string, string> = {}) {
  const auth = await fetch(`${site.url}/admin/auth?provider=github&scope=repo`, {
    redirect: "manual",
    headers,
  });
  const state = new URL(auth.headers.get("location") ?? "").searchParams.get("state") ?? "";
  const callback = await fetch(
    `${site.url}/admin/callback?code=${FAKE_CODE}&state=${encodeURIComponent(state)}`,
    { headers },
  );
  return {
    status: callback.status,
    retryAfter: callback.headers.get("retry-after"),
    body: await callback.text(),
  };
}

const linesOf = (site: RunningServer, pattern: RegExp) =>
  site
    .output()
    .split("\n")
    .filter((line) => pattern.test(line));

test.describe("/admin's GitHub sign-in against a fake GitHub", () => {
  let github: FakeGitHub;
  test.beforeEach(async () => {
    github = await fakeGitHub();
  });
  test.afterEach(async () => {
    await github.close();
  });

  test("a token endpoint answering a redirect gets no second post of the secret: the sign-in fails, in one line", async () => {
    const elsewhere = await bystander();
    const site = await signInSite(github);
    try {
      github.redirectTokenTo = `${elsewhere.url}/login/oauth/access_token`;
      const refused = await signIn(site);
      expect(refused.status).toBe(400);
      expect(refused.body).toContain("authorization:github:error:");
      expect(refused.body).not.toContain("gho_");
      expect(github.exchanges).toHaveLength(1);
      // The callback has answered, so the exchange is over: nothing can reach the other port later.
      expect(elsewhere.requests).toEqual([]);
      expect(linesOf(site, /^admin: /)).toEqual([
        `admin: a GitHub sign-in was refused: GitHub's token endpoint (${new URL(github.url).host}) answered HTTP 307, a redirect, which is not followed: CMS_GITHUB_OAUTH_URL must name the GitHub server itself`,
      ]);
      expect(site.output()).not.toContain(FAKE_SECRET);
    } finally {
      await site.stop();
      await elsewhere.close();
    }
  });

  test("the editor's configuration and policy name the configured API root, not api.github.com", async () => {
    const site = await signInSite(github);
    try {
      const config = (await (await fetch(`${site.url}/admin/config.yml`)).json()) as {
        backend: Record<string, unknown>;
      };
      expect(config.backend).toMatchObject({ name: "github", api_root: github.apiRoot, base_url: site.url });
      const policy = (await fetch(`${site.url}/admin/`)).headers.get("content-security-policy") ?? "";
      expect(policy).toContain(`connect-src 'self' blob: ${github.url};`);
      expect(policy).not.toContain("api.github.com");
    } finally {
      await site.stop();
    }
  });

  test("without TRUST_PROXY, token exchanges are limited for the whole site, however fast they come", async () => {
    const site = await signInSite(github);
    try {
      const tries = SIGN_INS_SITE_WIDE + 10;
      const outcomes = await Promise.all(Array.from({ length: tries }, () => signIn(site)));
      const statuses = outcomes.map((outcome) => outcome.status).sort();
      expect(statuses).toEqual([
        ...Array<number>(SIGN_INS_SITE_WIDE).fill(200),
        ...Array<number>(tries - SIGN_INS_SITE_WIDE).fill(429),
      ]);
      expect(github.exchanges).toHaveLength(SIGN_INS_SITE_WIDE);
      const refused = outcomes.filter((outcome) => outcome.status === 429);
      expect(
        refused.every((outcome) => Number(outcome.retryAfter) > 0 && !outcome.body.includes(FAKE_TOKEN)),
      ).toBe(true);
      expect(linesOf(site, /the site-wide sign-in level is spent/)).toHaveLength(tries - SIGN_INS_SITE_WIDE);
    } finally {
      await site.stop();
    }
  });

  test("with TRUST_PROXY, each client has a budget of its own", async () => {
    const site = await signInSite(github, { TRUST_PROXY: "127.0.0.1" });
    try {
      const from = (address: string) => ({ "X-Forwarded-For": address });
      const tries = SIGN_INS_PER_CLIENT + 10;
      const statuses: number[] = [];
      for (let index = 0; index < tries; index += 1)
        statuses.push((await signIn(site, from("203.0.113.7"))).status);
      expect(statuses).toEqual([
        ...Array<number>(SIGN_INS_PER_CLIENT).fill(200),
        ...Array<number>(tries - SIGN_INS_PER_CLIENT).fill(429),
      ]);
      expect(github.exchanges).toHaveLength(SIGN_INS_PER_CLIENT);
      expect((await signIn(site, from("203.0.113.8"))).status).toBe(200);
      expect(github.exchanges).toHaveLength(SIGN_INS_PER_CLIENT + 1);
    } finally {
      await site.stop();
    }
  });

  test("an error= holding line breaks is one escaped log line, and the request log keeps /admin", async () => {
    const site = await signInSite(github);
    try {
      const forged = encodeURIComponent(
        "access_denied\nserver: listening on http://evil.example\nadmin: signed in as the owner\n",
      );
      const answer = await fetch(`${site.url}/admin/callback?error=${forged}&state=x`);
      expect(answer.status).toBe(400);
      await expect
        .poll(() => linesOf(site, /^GET \/admin\/callback/))
        .toEqual([expect.stringMatching(/^GET \/admin\/callback\?error=&state= 400 /)]);
      expect(linesOf(site, /^admin: /)).toEqual([
        'admin: a GitHub sign-in was refused: GitHub answered "access_denied\\nserver: listening on http://evil.example\\nadmin"',
      ]);
      expect(linesOf(site, /^(?:server: listening on http:\/\/evil|admin: signed in)/)).toEqual([]);
      expect(github.exchanges).toEqual([]);
    } finally {
      await site.stop();
    }
  });

  test("in production without SITE_URL, /admin is off with one line naming it, and never sends anyone to GitHub", async () => {
    const site = await signInSite(github, { SITE_URL: "" });
    try {
      for (const path of ["/admin/", "/admin/config.yml", "/admin/auth?provider=github&scope=repo"]) {
        const answer = await fetch(`${site.url}${path}`, { redirect: "manual" });
        expect(answer.status, path).toBe(503);
      }
      expect(linesOf(site, /^admin: /)).toEqual([
        "admin: /admin is off: GitHub's sign-in returns to SITE_URL, which is not set (or was refused at start); set SITE_URL to the site's public origin, such as https://www.example.com (docs/configuration.md)",
      ]);
      expect(github.authorizations).toEqual([]);
    } finally {
      await site.stop();
    }
  });

  test("a GitHub URL with credentials is refused in one line; the site serves, /admin is off", async () => {
    const site = await signInSite(github, { CMS_GITHUB_OAUTH_URL: "https://github.com@evil.example" });
    try {
      expect((await fetch(`${site.url}/`)).status).toBe(200);
      expect((await fetch(`${site.url}/admin/auth?provider=github`, { redirect: "manual" })).status).toBe(
        503,
      );
      expect(linesOf(site, /^config: CMS_/)).toEqual([
        expect.stringMatching(
          /^config: CMS_GITHUB_OAUTH_URL is invalid \(must not hold a user name or password .*\); \/admin's GitHub sign-in stays off until it is fixed$/,
        ),
      ]);
      expect(site.output()).not.toContain("evil.example");
    } finally {
      await site.stop();
    }
  });
});

test.describe("/admin not configured", () => {
  test("answers a short 503 on every path, the bundle included, logged once and with the /admin prefix", async () => {
    const site = await startServer({ env: { SITE_URL: "https://www.example.com" } });
    try {
      const paths = [
        "/admin/",
        "/admin/decap-cms.js",
        "/admin/config.yml",
        "/admin/admin.js",
        "/admin/callback?code=x",
      ];
      for (const path of paths) {
        const answer = await fetch(`${site.url}${path}`, { headers: { "Accept-Encoding": "gzip" } });
        const body = await answer.text();
        expect(answer.status, path).toBe(503);
        expect(answer.headers.get("content-type"), path).toMatch(/^text\/plain/);
        expect(answer.headers.get("cache-control"), path).toBe("no-store");
        expect(body.length, path).toBeLessThan(200);
      }
      await expect.poll(() => linesOf(site, /^GET \/admin/)).toHaveLength(paths.length);
      expect(linesOf(site, /^GET \/admin\/ /)).toEqual([expect.stringMatching(/^GET \/admin\/ 503 /)]);
      expect(linesOf(site, /^GET \/admin\/decap-cms\.js /)).toEqual([expect.stringMatching(/ 503 \d+ - /)]);
      expect(linesOf(site, /^admin: /)).toEqual([
        "admin: /admin is off: set CMS_GITHUB_REPO, CMS_GITHUB_CLIENT_ID and CMS_GITHUB_CLIENT_SECRET (docs/configuration.md), or edit locally with `npm run content`",
      ]);
    } finally {
      await site.stop();
    }
  });
});
