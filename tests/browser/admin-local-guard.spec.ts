import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { once } from "node:events";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "@playwright/test";
import { CHROMIUM_FLAGS, findChromium } from "../../scripts/lib/chromium";
import { prepareContentWorktree } from "../../scripts/lib/content-worktree";
import { FIXTURE_CONTENT_DIR } from "../support/fixture-content";
import { expect, test } from "../support/fixtures";
import { type RunningLocalEditor, startLocalEditor } from "../support/local-editor";

// Issue 51, item 2: a web page must not write to the repository through `npm run content`. The
// local editor runs as `npm run content` runs it (tests/support/local-editor.ts) on a throwaway
// git repository; each request a page could make is sent, and refused, and then the repository
// has no new commit, branch or file and the files aimed at are unchanged.

const gitIdentity = {
  GIT_AUTHOR_NAME: "Developer",
  GIT_AUTHOR_EMAIL: "developer@example.test",
  GIT_COMMITTER_NAME: "Developer",
  GIT_COMMITTER_EMAIL: "developer@example.test",
};
const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, { cwd, encoding: "utf8", env: { ...process.env, ...gitIdentity } }).trim();

// The attacker's page is on another origin than the fixture's, and so is its request, refused with 403, by design.
test.use({
  allowedProblems: [
    /^request to another origin: http:\/\/127\.0\.0\.1:\d+\/|^HTTP 403 http:\/\/127\.0\.0\.1:\d+\/admin\/api\/v1\?token=/,
  ],
});

let repository: string;
let worktree: string;
let branch: string;
let editor: RunningLocalEditor;

/** What a page could change: every ref and its commit, the worktree's status, and the files aimed at. */
function repositoryState() {
  const hash = (file: string) =>
    existsSync(file) ? createHash("sha256").update(readFileSync(file)).digest("hex") : "absent";
  return {
    refs: git(repository, "for-each-ref", "--format=%(refname) %(objectname)"),
    status: git(worktree, "status", "--porcelain", "--untracked-files=all", "--ignored"),
    config: hash(join(repository, ".git", "config")),
    worktreeGitFile: hash(join(worktree, ".git")),
    startScript: hash(join(worktree, "scripts", "start.js")),
    workflow: hash(join(worktree, ".github", "workflows", "x.yml")),
    outside: hash(join(repository, "x.md")),
  };
}

/** A case study saved as Decap's proxy backend saves it, to `path`; a draft branch when `useWorkflow`. */
function persistEntry(path: string, useWorkflow = true) {
  return {
    action: "persistEntry",
    params: {
      branch,
      dataFiles: [{ slug: "pwned", path, raw: "---js\nrequire('child_process').execSync('id')\n---\n" }],
      assets: [],
      options: {
        collectionName: "case-studies",
        commitMessage: "Create Case studies “pwned”",
        useWorkflow,
        status: "draft",
      },
    },
  };
}

/** Sends `body` to the site as a page's fetch would, with the headers given; resolves with the answer. */
function send(
  method: string,
  path: string,
  body: object | undefined,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  const payload = body === undefined ? "" : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: "127.0.0.1",
        port: editor.site.port,
        path,
        method,
        headers: {
          "Content-Type": "application/json",
          "Content-Length": Buffer.byteLength(payload),
          ...headers,
        },
      },
      (answer) => {
        let text = "";
        answer.on("data", (chunk) => {
          text += chunk;
        });
        answer.on("end", () => resolve({ status: answer.statusCode ?? 0, body: text }));
      },
    );
    outgoing.on("error", reject);
    outgoing.end(payload);
  });
}

test.beforeAll(async () => {
  repository = mkdtempSync(join(tmpdir(), "content-guard-"));
  git(repository, "init", "--quiet", "--initial-branch=main");
  // A case study of the tests' own content, where the site keeps content.
  for (const [from, file] of [
    [`${FIXTURE_CONTENT_DIR}/case-studies/brightlend.md`, "content/case-studies/brightlend.md"],
    ["scripts/start.js", "scripts/start.js"],
  ] as const) {
    execFileSync("mkdir", ["-p", join(repository, file, "..")]);
    execFileSync("cp", [join(process.cwd(), from), join(repository, file)]);
  }
  git(repository, "add", "--all");
  git(repository, "commit", "--quiet", "--no-verify", "--no-gpg-sign", "--message", "The site");
  const content = prepareContentWorktree(repository);
  worktree = content.dir;
  branch = content.branch;
  editor = await startLocalEditor({ checkout: worktree, branch, gitIdentity });
});

test.afterAll(async () => {
  await editor?.stop();
  if (repository) rmSync(repository, { recursive: true, force: true });
});

test("the site's own origin with the run's token reads an entry through /admin/api/v1", async () => {
  const answer = await send(
    "POST",
    `/admin/api/v1?token=${editor.run.token}`,
    { action: "getEntry", params: { branch, path: "content/case-studies/brightlend.md" } },
    { Origin: editor.site.url },
  );
  expect(answer.status).toBe(200);
  expect(JSON.parse(answer.body)).toMatchObject({ file: { path: "content/case-studies/brightlend.md" } });
  expect(JSON.parse(answer.body).data).toContain("BrightLend");
});

test("every request of item 2 is refused with 403, and no commit, branch or file appears", async () => {
  const before = repositoryState();
  const own = { Origin: editor.site.url };
  const withToken = `/admin/api/v1?token=${editor.run.token}`;
  const evilHost = `evil.example:${editor.site.port}`;
  const cases: [string, string, object, Record<string, string>, string][] = [
    [
      "another origin on localhost",
      withToken,
      persistEntry("content/case-studies/pwned.md"),
      { Origin: `http://localhost:${editor.site.port + 1}` },
      "its Origin is not the site's",
    ],
    [
      "a rebinding Host",
      withToken,
      persistEntry("content/case-studies/pwned.md"),
      { Host: evilHost, Origin: `http://${evilHost}` },
      "its Host is not the site's",
    ],
    [
      "no token",
      "/admin/api/v1",
      persistEntry("content/case-studies/pwned.md"),
      own,
      "its token is missing or wrong",
    ],
    [
      "a wrong token",
      "/admin/api/v1?token=x".padEnd(60, "x"),
      persistEntry("content/case-studies/pwned.md"),
      own,
      "its token is missing or wrong",
    ],
    [
      "a write under .git",
      withToken,
      persistEntry(".git/config"),
      own,
      "params.dataFiles.0.path is not under content/",
    ],
    [
      "a write under content/.git",
      withToken,
      persistEntry("content/.git/config"),
      own,
      "params.dataFiles.0.path names a hidden file or folder",
    ],
    [
      "scripts/start.js",
      withToken,
      persistEntry("scripts/start.js", false),
      own,
      "params.dataFiles.0.path is not under content/",
    ],
    [
      "a workflow on a draft branch",
      withToken,
      persistEntry(".github/workflows/x.yml"),
      own,
      "params.dataFiles.0.path is not under content/",
    ],
    [
      "a .. path",
      withToken,
      persistEntry("content/../x.md"),
      own,
      "params.dataFiles.0.path has an empty, . or .. segment",
    ],
    [
      "another branch",
      withToken,
      {
        ...persistEntry("content/case-studies/pwned.md"),
        params: { ...persistEntry("").params, branch: "main" },
      },
      own,
      "params.branch",
    ],
    [
      "an upload under .git",
      withToken,
      {
        action: "persistMedia",
        params: {
          branch,
          asset: { path: ".git/hooks/pre-commit", content: "ZWNobyBwd25lZA==", encoding: "base64" },
          options: { commitMessage: "Upload" },
        },
      },
      own,
      "params.asset.path is not under content/",
    ],
  ];
  for (const [what, path, body, headers, reason] of cases) {
    const answer = await send("POST", path, body, headers);
    console.log(`${what}: ${answer.status} ${answer.body}`);
    expect(answer.status, what).toBe(403);
    expect(answer.body, what).toContain(reason);
  }
  // The rebinding page cannot read the token either: nothing of /admin answers on its host.
  expect((await send("GET", "/admin/config.yml", undefined, { Host: evilHost })).status).toBe(403);
  expect(repositoryState()).toEqual(before);
  expect(editor.site.output()).toContain(
    "admin: refused a request to the local editor's API: its Origin is not the site's",
  );
});

test("a page on another origin, and one on a rebinding name, get 403 from the browser's own requests", async ({
  page,
}) => {
  const before = repositoryState();
  // A page of another site on this machine (another port) POSTs as a cross-site attack would.
  const elsewhere = createServer((_request, response) =>
    response.end("<!doctype html><title>Elsewhere</title>"),
  );
  elsewhere.listen(0, "127.0.0.1");
  await once(elsewhere, "listening");
  try {
    await page.goto(`http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}/`);
    const crossOrigin = await page.evaluate(
      async ({ url, body }) => {
        const answer = await fetch(url, {
          method: "POST",
          headers: { "Content-Type": "text/plain" },
          body,
          mode: "no-cors",
        });
        return answer.type;
      },
      {
        url: `${editor.site.url}/admin/api/v1?token=${editor.run.token}`,
        body: JSON.stringify(persistEntry("content/case-studies/pwned.md")),
      },
    );
    expect(crossOrigin).toBe("opaque");
    await expect.poll(() => editor.site.output()).toContain("its Origin is not the site's");
  } finally {
    elsewhere.close();
  }
  // A rebinding name: evil.example resolves to 127.0.0.1, so its page is same-origin with the site to the browser.
  const browser = await chromium.launch({
    executablePath: (await findChromium()).executablePath,
    args: [...CHROMIUM_FLAGS, "--host-resolver-rules=MAP evil.example 127.0.0.1"],
  });
  try {
    const rebound = await browser.newPage();
    await rebound.goto(`http://evil.example:${editor.site.port}/`);
    const answers = await rebound.evaluate(
      async (body) => {
        const config = await fetch("/admin/config.yml");
        const api = await fetch("/admin/api/v1", {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body,
        });
        return [config.status, api.status];
      },
      JSON.stringify(persistEntry("content/case-studies/pwned.md")),
    );
    expect(answers).toEqual([403, 403]);
  } finally {
    await browser.close();
  }
  await expect.poll(() => editor.site.output()).toContain("its Host is not the site's");
  expect(repositoryState()).toEqual(before);
});
