/**
 * The local editor as `npm run content` starts it (scripts/content.ts, scripts/lib/local-editor.ts),
 * on a checkout of the test's: decap-server on a unix socket of the run's, and the built site on a
 * port of its own whose SITE_URL is its own origin, with the socket, token and checkout.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { expect } from "@playwright/test";
import {
  decapBackendCommand,
  decapBackendEnv,
  type LocalEditorRun,
  localEditorSiteEnv,
  newLocalEditorRun,
} from "../../scripts/lib/local-editor";
import { freePort, type RunningServer, startServer, stopProcess } from "./server-process";

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
