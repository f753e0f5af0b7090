#!/usr/bin/env node
/** `npm start`: build once when there is no build yet, then run the server (build/server.js). */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { ensureBuild } from "./lib/build.js";
import { root } from "./lib/server.js";

ensureBuild();

const server = spawn(process.execPath, [join(root, "build", "server.js")], {
  cwd: root,
  stdio: "inherit",
  env: { NODE_ENV: "production", ...process.env },
});
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => server.kill(signal));
}
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
