// No browser here: the plain runner, not the page fixtures.
import { request as httpRequest } from "node:http";
import { expect } from "@playwright/test";
import { MAX_BODY } from "../../server/admin/preview";
import { FAKE_SECRET, type FakeGitHub, fakeGitHub } from "../support/fake-github";
import { processTest as test } from "../support/fixtures";
import { freePort, type RunningServer, startServer } from "../support/server-process";

/**
 * /admin/preview/<collection> (server/admin/preview.ts, app/editor-preview/), seen from outside the
 * built server: it renders an entry only for the site's own /admin/ page (signed in with GitHub:
 * the site's Origin and a token that may push, asked of a fake GitHub; editing locally: the local
 * editor's Host, Origin and run token), validates the entry as the build does, and answers a
 * document with the page's own markup and stylesheet, which runs nothing the entry says.
 */

const EDITOR = "gho_editor_token_0123456789";
const READER = "gho_reader_token_0123456789";

/** A case study as Decap posts it: the fields of its file, the body among them. */
const caseStudy = (changes: Record<string, unknown> = {}) => ({
  slug: "ledgerly",
  data: {
    title: "Ledgerly closes the books in a day",
    client: "Ledgerly",
    sector: "Fintech",
    summary: "A month-end close that took a week now takes a day.",
    stack: ["Remix"],
    results: [{ value: "5×", label: "faster month-end close" }],
    cover: { src: "images/ledgerly-office.jpg", alt: "Ledgerly's team at their desks" },
    date: "2026-11-20",
    body: "Ledgerly's accountants closed each month by hand.\n\nNow a day is enough.",
    ...changes,
  },
});

interface Call {
  origin?: string;
  token?: string;
  contentType?: string;
  body?: string;
  collection?: string;
  query?: string;
  host?: string;
}

/** A POST as Node's own client sends it, which (unlike fetch) may name another Host. */
function post(url: string, headers: Record<string, string>, body: string) {
  return new Promise<{ status: number; type: string; text: string }>((resolve, reject) => {
    const request = httpRequest(url, { method: "POST", headers }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk) => {
        text += chunk;
      });
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, type: response.headers["content-type"] ?? "", text }),
      );
    });
    request.on("error", reject);
    request.end(body);
  });
}

async function preview(site: RunningServer, call: Call) {
  const headers: Record<string, string> = { "Content-Type": call.contentType ?? "application/json" };
  if (call.origin) headers.Origin = call.origin;
  if (call.token) headers.Authorization = `token ${call.token}`;
  if (call.host) headers.Host = call.host;
  const { status, type, text } = await post(
    `${site.url}/admin/preview/${call.collection ?? "case-studies"}${call.query ?? ""}`,
    headers,
    call.body ?? JSON.stringify(caseStudy()),
  );
  let json: { html?: string; faults?: { field: string; message: string }[]; error?: string } = {};
  try {
    json = JSON.parse(text);
  } catch {
    // an answer that is not JSON stays empty here; the status says what it was
  }
  return { status, type, ...json };
}

test.describe("signed in with GitHub", () => {
  let github: FakeGitHub;
  let site: RunningServer;

  test.beforeAll(async () => {
    github = await fakeGitHub();
    github.repositories.set(EDITOR, { push: true });
    github.repositories.set(READER, { push: false });
    const port = await freePort();
    site = await startServer({
      port,
      env: {
        SITE_URL: `http://127.0.0.1:${port}`,
        CMS_GITHUB_REPO: "nirmaan/site",
        CMS_GITHUB_CLIENT_ID: "Iv1.fakeclient",
        CMS_GITHUB_CLIENT_SECRET: FAKE_SECRET,
        CMS_GITHUB_OAUTH_URL: github.url,
        CMS_GITHUB_API_ROOT: github.apiRoot,
      },
    });
  });
  test.afterAll(async () => {
    await site?.stop();
    await github?.close();
  });

  test("renders an editor's entry with the page's components and stylesheet, for the site's own origin and a token that may push only, asking GitHub once", async () => {
    const refusals = [
      await preview(site, { token: EDITOR }),
      await preview(site, { origin: "http://evil.example", token: EDITOR }),
      await preview(site, { origin: site.url }),
      await preview(site, { origin: site.url, token: READER }),
    ];
    expect(refusals.map((answer) => [answer.status, answer.error])).toEqual([
      [403, "refused: its Origin is not the site's"],
      [403, "refused: its Origin is not the site's"],
      [403, "refused: it carries no GitHub token"],
      [403, "refused: its GitHub token may not push to the repository"],
    ]);
    expect(site.output().match(/^admin: refused a preview: .*$/gm)).toHaveLength(4);

    const answer = await preview(site, { origin: site.url, token: EDITOR });
    expect(answer.status).toBe(200);
    expect(answer.type).toMatch(/^application\/json/);
    const html = answer.html ?? "";
    expect(html).toMatch(/^<!doctype html><html lang="en">/);
    expect(html).toMatch(/<link rel="stylesheet" href="\/build\/_assets\/app-[A-Z0-9]+\.css"\/>/);
    expect(html).toContain(
      '<h1 id="page-heading" class="font-extrabold text-3xl tracking-tight sm:text-5xl">Ledgerly closes the books in a day</h1>',
    );
    expect(html).toMatch(/<dt[^>]*>faster month-end close<\/dt><dd[^>]*>5×<\/dd>/);
    expect(html).toContain(
      '<div class="content-body"><p>Ledgerly\'s accountants closed each month by hand.</p>\n<p>Now a day is enough.</p></div>',
    );
    // An upload the build has not made yet: the editor's page shows its own copy in its place.
    expect(html).toContain(
      'src="preview:images/ledgerly-office.jpg" alt="Ledgerly&#x27;s team at their desks"',
    );
    expect(html).not.toMatch(/<script/i);

    await preview(site, { origin: site.url, token: EDITOR });
    const asked = github.apiCalls.filter((call) => call.path === "/api/v3/repos/nirmaan/site");
    expect(asked.map((call) => call.authorization)).toEqual([`token ${READER}`, `token ${EDITOR}`]);
  });

  test("an entry the build would refuse gets the fields to fix, named as the editor names them; what the entry says is only ever text", async () => {
    const call = { origin: site.url, token: EDITOR };
    const unfinished = caseStudy({ title: undefined, results: [{ value: "", label: "faster close" }] });
    const faults = await preview(site, { ...call, body: JSON.stringify(unfinished) });
    expect(faults.status).toBe(200);
    expect(faults.faults).toEqual([
      { field: "Title", message: "is missing" },
      { field: "Results › 1 › Figure", message: "is empty" },
    ]);
    expect(faults.html).toContain("Results › 1 › Figure</span>: is empty");

    const raw = await preview(site, {
      ...call,
      body: JSON.stringify(caseStudy({ body: "Hi <img src=x onerror=alert(1)>" })),
    });
    expect(raw.faults).toEqual([
      { field: "Body", message: "line 1: raw HTML is not allowed (<img src=x onerror=alert(1)>)" },
    ]);
    const control = await preview(site, {
      ...call,
      body: JSON.stringify(caseStudy({ client: "Ledger\u0007ly" })),
    });
    expect(control.faults).toEqual([
      { field: "Client", message: "holds the control character U+0007, which no page can show" },
    ]);

    const tag = "<script>alert(1)</script>";
    const escaped = await preview(site, {
      ...call,
      body: JSON.stringify(caseStudy({ title: `Ledgerly ${tag}` })),
    });
    expect(escaped.html).toContain("Ledgerly &lt;script&gt;alert(1)&lt;/script&gt;</h1>");
    expect(escaped.html).not.toContain(tag);
  });

  test("answers only JSON of a bounded size, for a collection with a preview", async () => {
    const call = { origin: site.url, token: EDITOR };
    const large = JSON.stringify(caseStudy({ body: "x".repeat(MAX_BODY) }));
    expect((await preview(site, { ...call, body: large })).status).toBe(413);
    expect((await preview(site, { ...call, contentType: "text/plain" })).status).toBe(415);
    expect((await preview(site, { ...call, body: "{" })).status).toBe(400);
    expect((await preview(site, { ...call, collection: "scripts" })).status).toBe(404);
  });
});

test("without SITE_URL (a development server on a port of its own), the editor's site link is the site that is running", async () => {
  const github = await fakeGitHub();
  const site = await startServer({
    env: {
      NODE_ENV: "test",
      CMS_GITHUB_REPO: "nirmaan/site",
      CMS_GITHUB_CLIENT_ID: "Iv1.fakeclient",
      CMS_GITHUB_CLIENT_SECRET: FAKE_SECRET,
      CMS_GITHUB_OAUTH_URL: github.url,
      CMS_GITHUB_API_ROOT: github.apiRoot,
    },
  });
  try {
    const config = (await (await fetch(`${site.url}/admin/config.yml`)).json()) as Record<string, unknown>;
    expect(config).toMatchObject({ site_url: site.url, display_url: site.url });
    expect(site.url).not.toContain(":3000");
  } finally {
    await site.stop();
    await github.close();
  }
});

test("editing locally, a preview needs the local editor's Host, Origin and run token, as its API does", async () => {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const token = "local-run-token-0123456789abcdefghij";
  const site = await startServer({
    port,
    env: {
      SITE_URL: origin,
      CMS_LOCAL_SOCKET: "/nonexistent/decap.sock",
      CMS_LOCAL_TOKEN: token,
      CMS_LOCAL_REPOSITORY: process.cwd(),
    },
  });
  try {
    const query = `?token=${token}`;
    expect((await preview(site, { origin, query, host: "evil.example" })).status).toBe(403);
    expect((await preview(site, { origin: "http://evil.example", query })).error).toBe(
      "refused: its Origin is not the site's",
    );
    expect((await preview(site, { origin, query: "?token=wrong" })).error).toBe(
      "refused: its token is missing or wrong",
    );
    const answer = await preview(site, { origin, query });
    expect(answer.status).toBe(200);
    expect(answer.html).toContain("Ledgerly closes the books in a day</h1>");
    // The page hands its script the token and the previewed collections.
    const page = await (await fetch(`${site.url}/admin/`)).text();
    expect(page).toContain(`<meta name="cms-preview-token" content="${token}">`);
    expect(page).toMatch(
      /<meta name="cms-preview-collections" content="[^"]*\bcase-studies\b[^"]*\binsights\b/,
    );
  } finally {
    await site.stop();
  }
});
