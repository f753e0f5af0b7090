/**
 * The local editor as `npm run content` starts it (scripts/content.ts, scripts/lib/local-editor.ts),
 * on a checkout of the test's: decap-server on a unix socket of the run's, and the built site on a
 * port of its own whose SITE_URL is its own origin, with the socket, token and checkout; and that
 * throwaway checkout, a git repository of this one's files.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { expect } from "@playwright/test";
import {
  decapBackendCommand,
  decapBackendEnv,
  type LocalEditorRun,
  localEditorSiteEnv,
  newLocalEditorRun,
} from "../../scripts/lib/local-editor";
import { FIXTURE_CONTENT_DIR } from "./fixture-content";
import { freePort, type RunningServer, startServer, stopProcess } from "./server-process";

/** A throwaway identity: decap-server commits drafts as whoever runs it. */
export const gitIdentity = {
  GIT_AUTHOR_NAME: "Content editor",
  GIT_AUTHOR_EMAIL: "editor@example.test",
  GIT_COMMITTER_NAME: "Content editor",
  GIT_COMMITTER_EMAIL: "editor@example.test",
};

export function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, ...gitIdentity },
    stdio: ["ignore", "pipe", "pipe"],
  }).trim();
}

/**
 * A copy of this checkout's tracked files as they are in the working tree, with the tests' own
 * content as its content/ (an edit to content/ cannot fail a test), committed on `main` of a new
 * repository in the temp folder, with its node_modules linked.
 */
export function copyCheckout(project = process.cwd()): string {
  const dir = mkdtempSync(join(tmpdir(), "content-repo-"));
  const files = execFileSync("git", ["ls-files", "-z"], { cwd: project, encoding: "utf8" }).split("\0");
  for (const file of files.filter((name) => name && existsSync(join(project, name)))) {
    if (file.startsWith("content/")) continue;
    const to = file.replace(`${FIXTURE_CONTENT_DIR}/`, "content/");
    mkdirSync(dirname(join(dir, to)), { recursive: true });
    copyFileSync(join(project, file), join(dir, to));
  }
  symlinkSync(join(project, "node_modules"), join(dir, "node_modules"));
  git(dir, "init", "--quiet", "--initial-branch=main");
  git(dir, "add", "--all");
  git(dir, "commit", "--quiet", "--no-verify", "--no-gpg-sign", "--message", "The site");
  return dir;
}

export interface RunningLocalEditor {
  site: RunningServer;
  decap: ChildProcess;
  run: LocalEditorRun;
  /** Everything decap-server printed. */
  decapOutput: () => string;
  stop: () => Promise<void>;
}

/** Starts both on `checkout` (its branch `branch`), committing as `gitIdentity`; resolves once both answer. */
export async function startLocalEditor(options: {
  checkout: string;
  branch: string;
  gitIdentity: Record<string, string>;
}): Promise<RunningLocalEditor> {
  const run = newLocalEditorRun();
  const [node, ...args] = decapBackendCommand();
  const decap = spawn(node, args, {
    cwd: options.checkout,
    env: {
      PATH: process.env.PATH ?? "",
      NODE_ENV: "production",
      ...options.gitIdentity,
      ...decapBackendEnv(options.checkout, run),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  decap.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  decap.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  await expect.poll(() => existsSync(run.socket) || decap.exitCode !== null, { timeout: 30_000 }).toBe(true);
  if (decap.exitCode !== null) throw new Error(`decap-server exited with ${decap.exitCode}:\n${output}`);
  const port = await freePort();
  const site = await startServer({
    port,
    env: localEditorSiteEnv({
      checkout: options.checkout,
      branch: options.branch,
      run,
      siteUrl: `http://127.0.0.1:${port}`,
    }),
  });
  return {
    site,
    decap,
    run,
    decapOutput: () => output,
    stop: async () => {
      await site.stop();
      await stopProcess(decap);
      rmSync(run.folder, { recursive: true, force: true });
    },
  };
}
