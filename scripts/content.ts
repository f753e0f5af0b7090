/**
 * `npm run content`: local editing. Starts decap-server, Decap CMS's local backend, on this
 * checkout (or CONTENT_REPO_DIRECTORY) and the site with /admin pointed at it, so an editor's
 * changes land as files in content/ without GitHub; stops both on Ctrl-C.
 *
 * PORT (3000) is the site's, CMS_LOCAL_PORT (8081) decap-server's; both listen on 127.0.0.1.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { ensureBuild, root } from "./lib/server.js";
import { stopProcess } from "./lib/stop-process";

const require = createRequire(import.meta.url);

if (process.argv.includes("--help")) {
  console.log(
    "usage: npm run content\n\nThe site on http://localhost:$PORT (3000) with /admin editing this checkout's content/ through decap-server on port $CMS_LOCAL_PORT (8081); CONTENT_REPO_DIRECTORY edits another folder.",
  );
  process.exit(0);
}

ensureBuild();
const sitePort = process.env.PORT ?? "3000";
const cmsPort = process.env.CMS_LOCAL_PORT ?? "8081";
const repo = resolve(process.env.CONTENT_REPO_DIRECTORY ?? root);
const decapServer = join(dirname(require.resolve("decap-server/package.json")), "dist", "index.js");

const children: ChildProcess[] = [
  // MODE=fs: an entry saved in the editor is written at once to the folder's files, for you to commit.
  spawn(process.execPath, [decapServer], {
    cwd: repo,
    env: { ...process.env, PORT: cmsPort, BIND_HOST: "127.0.0.1", MODE: "fs", GIT_REPO_DIRECTORY: repo },
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
      CMS_LOCAL_BACKEND: `http://localhost:${cmsPort}/api/v1`,
    },
    stdio: "inherit",
  }),
];
console.log(
  `content: edit at http://localhost:${sitePort}/admin/ (files in ${repo}/content); Ctrl-C stops both`,
);

let stopping = false;
const stop = async (code: number) => {
  if (stopping) return;
  stopping = true;
  await Promise.all(children.map(stopProcess));
  process.exit(code);
};
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void stop(0));
for (const child of children) child.once("exit", (code) => void stop(code ?? 1));
