import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { expect, test } from "@playwright/test";
import { cloneHead } from "../support/clone";
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
  clone = cloneHead(root, "fresh-clone-");
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
