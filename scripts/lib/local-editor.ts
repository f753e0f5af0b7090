/**
 * How `npm run content` runs the local editor, and the tests with it: decap-server
 * (scripts/admin/decap-backend.ts) on a unix socket in a folder of this run's, and the site with
 * the socket, a token made for this run, and the checkout to edit, so that its /admin/api/v1 is
 * the only way to decap-server (docs/content-editing.md).
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { root } from "./server.js";

const require = createRequire(import.meta.url);

export interface LocalEditorRun {
  /** A folder only this user can open (mkdtemp makes it 0700), holding the socket. */
  folder: string;
  socket: string;
  /** The token the site hands its /admin/ page, new each run. */
  token: string;
}

/** A new run: its folder, socket and token. */
export function newLocalEditorRun(): LocalEditorRun {
  const folder = mkdtempSync(join(tmpdir(), "local-editor-"));
  return { folder, socket: join(folder, "decap.sock"), token: randomBytes(32).toString("base64url") };
}

/** The command that starts decap-server on the run's socket. */
export function decapBackendCommand(): [string, ...string[]] {
  const viteNode = join(dirname(require.resolve("vite-node/package.json")), "vite-node.mjs");
  // vite-node serves files under its root only, and decap-server runs in the checkout it edits.
  return [process.execPath, viteNode, "--root", root, join(root, "scripts", "admin", "decap-backend.ts")];
}

/** decap-server's environment: git mode (drafts as branches) on `checkout`, on the run's socket. */
export function decapBackendEnv(checkout: string, run: LocalEditorRun): Record<string, string> {
  return { GIT_REPO_DIRECTORY: resolve(checkout), DECAP_SOCKET: run.socket };
}

/** The site's environment for the local editor (app/env.server.ts reads it). */
export function localEditorSiteEnv(options: {
  checkout: string;
  branch: string;
  run: LocalEditorRun;
  /** The origin the editor is opened at; /admin answers on its host only. */
  siteUrl: string;
}): Record<string, string> {
  return {
    SITE_URL: options.siteUrl,
    CMS_LOCAL_SOCKET: options.run.socket,
    CMS_LOCAL_TOKEN: options.run.token,
    CMS_LOCAL_REPOSITORY: resolve(options.checkout),
    // Decap's backend.branch: the branch drafts start from and publishing merges into.
    CMS_GITHUB_BRANCH: options.branch,
  };
}
