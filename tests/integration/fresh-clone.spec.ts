import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { startServer } from "../support/server-process";

// README's first command, `npm install && npm start`, on a clone: only what is committed (no
// build/, no app/content/generated/, no public/media/), with this checkout's packages linked in
// for the install. `npm start` finds no build, builds the site as `npm run build` does, then
// serves the home page. It clones HEAD, so it tests what is committed, not the working tree.

const root = process.cwd();
/** The whole build on a busy machine of two cores: the content's images, remix build, the media. */
const BUILD_MS = 15 * 60_000;

let clone: string;
test.beforeEach(() => {
  clone = mkdtempSync(join(tmpdir(), "fresh-clone-"));
  // safe.directory: a clone by one user of a checkout owned by another (root in CI, or the reverse).
  execFileSync("git", ["-c", `safe.directory=${root}`, "clone", "--quiet", root, clone]);
  // A folder of the clone's own with a link per package (not the tools' dot folders): what the
  // build writes there (Vite's .vite-temp) stays in the clone, so it builds when this checkout's
  // node_modules is not the tester's to write.
  mkdirSync(join(clone, "node_modules"));
  for (const entry of readdirSync(join(root, "node_modules"))) {
    if (!entry.startsWith("."))
      symlinkSync(join(root, "node_modules", entry), join(clone, "node_modules", entry));
  }
});
test.afterEach(() => {
  rmSync(clone, { recursive: true, force: true });
});

test("npm start on a fresh clone builds the site, then serves the home page with its enquiry form", async () => {
  test.setTimeout(BUILD_MS + 60_000);
  const server = await startServer({
    cwd: clone,
    command: ["npm", "start"],
    env: { HOME: process.env.HOME ?? tmpdir() },
    readyWithinMs: BUILD_MS,
  });
  try {
    const response = await fetch(`${server.url}/`);
    expect(response.status, server.output()).toBe(200);
    const html = await response.text();
    expect(html).toMatch(/<h1[\s>]/);
    expect(html).toMatch(/<section[^>]* id="contact"/);
    expect(html).toMatch(/<form[^>]* method="post"/i);
  } finally {
    await server.stop();
  }
  // npm passed the SIGTERM on: nothing it started still serves.
  await expect
    .poll(() =>
      fetch(`${server.url}/healthz`).then(
        () => "serving",
        () => "stopped",
      ),
    )
    .toBe("stopped");
});
