/**
 * `npm run content`: local editing with drafts. Starts decap-server, Decap CMS's local backend,
 * on a unix socket of this run's (scripts/lib/local-editor.ts), in its git mode (the editorial workflow: a draft is a `cms/<collection>/<slug>` branch,
 * publishing merges it) on a worktree of this repository of its own, .cache/content-worktree on
 * branch `content-edits` (scripts/lib/content-worktree.ts says why), or on CONTENT_REPO_DIRECTORY's
 * checkout as it is; and the site, whose /admin/api/v1 is the only way to it. Stops both on Ctrl-C.
 *
 * PORT (3000) is the site's, on 127.0.0.1. CONTENT_BRANCH names the worktree's branch.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { ensureBuild } from "./lib/build.js";
import { type ContentCheckout, DEFAULT_CONTENT_BRANCH, prepareContentWorktree } from "./lib/content-worktree";
import {
  decapBackendCommand,
  decapBackendEnv,
  localEditorSiteEnv,
  newLocalEditorRun,
} from "./lib/local-editor";
import { root } from "./lib/server.js";
import { stopProcess } from "./lib/stop-process";

if (process.argv.includes("--help")) {
  console.log(
    `usage: npm run content\n\nThe site on http://localhost:$PORT (3000) with /admin editing this repository's content/ through decap-server, which only the site's own /admin/ page can reach. Edits are drafts (git branches cms/…) until published; publishing commits them to branch $CONTENT_BRANCH (${DEFAULT_CONTENT_BRANCH}) in the worktree .cache/content-worktree, for you to merge. CONTENT_REPO_DIRECTORY edits another git checkout, on its current branch.`,
  );
  process.exit(0);
}

function contentCheckout(): ContentCheckout {
  try {
    const dir = process.env.CONTENT_REPO_DIRECTORY;
    if (dir === undefined) return prepareContentWorktree(root, process.env.CONTENT_BRANCH);
    const branch = execFileSync("git", ["rev-parse", "--abbrev-ref", "HEAD"], {
      cwd: dir,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
    return { dir: resolve(dir), branch };
  } catch (error) {
    const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
    console.error(`content: no git checkout to edit: ${reason}`);
    process.exit(1);
  }
}

ensureBuild();
const sitePort = process.env.PORT ?? "3000";
const siteUrl = `http://localhost:${sitePort}`;
const checkout = contentCheckout();
if (checkout.note) console.log(checkout.note);
const run = newLocalEditorRun();
const [node, ...backendArgs] = decapBackendCommand();

const children: ChildProcess[] = [
  spawn(node, backendArgs, {
    cwd: checkout.dir,
    env: { ...process.env, ...decapBackendEnv(checkout.dir, run) },
    stdio: "inherit",
  }),
  spawn(process.execPath, [join(root, "build", "server.js")], {
    cwd: root,
    env: {
      ...process.env,
      PORT: sitePort,
      HOST: "127.0.0.1",
      // The built server, as `npm start` runs it (vite-node, which runs this script, sets development).
      NODE_ENV: "production",
      ...localEditorSiteEnv({ checkout: checkout.dir, branch: checkout.branch, run, siteUrl }),
    },
    stdio: "inherit",
  }),
];
console.log(
  `content: edit at ${siteUrl}/admin/ (drafts are branches cms/…; published edits are commits on ${checkout.branch} in ${checkout.dir}); Ctrl-C stops both`,
);

let stopping = false;
const stop = async (code: number) => {
  if (stopping) return;
  stopping = true;
  await Promise.all(children.map(stopProcess));
  rmSync(run.folder, { recursive: true, force: true });
  process.exit(code);
};
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void stop(0));
for (const child of children) child.once("exit", (code) => void stop(code ?? 1));
