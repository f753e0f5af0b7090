#!/usr/bin/env node
// `npm start`: build once when there is no build yet, then serve it with remix-serve.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { ensureBuild, root } from "./lib/server.js";

const require = createRequire(import.meta.url);
const serverBuild = join(root, "build", "index.js");

ensureBuild();

const serve = join(dirname(require.resolve("@remix-run/serve/package.json")), "dist", "cli.js");
const server = spawn(process.execPath, [serve, serverBuild], {
  cwd: root,
  stdio: "inherit",
  env: { NODE_ENV: "production", ...process.env },
});
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => server.kill(signal));
}
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
