#!/usr/bin/env node
// `npm start`: build once when there is no build yet, then serve it with remix-serve.
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
const serverBuild = join(root, "build", "index.js");

if (!existsSync(serverBuild) || !existsSync(join(root, "public", "build"))) {
  console.log("No build found: building the site first (npm run build).");
  const remix = join(dirname(require.resolve("@remix-run/dev/package.json")), "dist", "cli.js");
  const build = spawnSync(process.execPath, [remix, "build"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

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
