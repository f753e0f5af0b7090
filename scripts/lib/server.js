/**
 * What `npm start`, the bench and the load test share: a build when one is missing, the project's
 * root, and a process's memory.
 *
 * Servers start with tests/support/server-process.ts, as in the browser tests.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const require = createRequire(import.meta.url);

const buildOutputs = [
  "build/index.js",
  "build/server.js",
  "build/leads.js",
  "build/vitals.js",
  "build/migrations",
  "build/admin",
  "public/build",
  "public/og",
];

/** Builds the site when any part of the build is missing (like `npm start`), as `npm run build` does. */
export function ensureBuild() {
  if (buildOutputs.every((output) => existsSync(join(root, output)))) return;
  console.log(
    "No build found: building the site first (remix build, the operator commands, then the media).",
  );
  const remix = join(dirname(require.resolve("@remix-run/dev/package.json")), "dist", "cli.js");
  const viteNode = join(dirname(require.resolve("vite-node/package.json")), "vite-node.mjs");
  const steps = [
    [remix, "build"],
    [join(root, "scripts", "compile-hints.js")],
    [join(root, "scripts", "build-commands.js")],
    [viteNode, join(root, "scripts", "build-media.ts")],
  ];
  for (const args of steps) {
    // A production build whoever calls: vite-node (the bench, the load test) sets NODE_ENV=development.
    const env = { ...process.env, NODE_ENV: "production" };
    const build = spawnSync(process.execPath, args, { cwd: root, stdio: "inherit", env });
    if (build.status !== 0) throw new Error(`${args.join(" ")} failed with ${build.status}`);
  }
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Resident set size of a process in bytes (Linux /proc), or null when unavailable; `field`
 * "VmHWM" gives its peak so far instead.
 */
export function rssBytes(pid, field = "VmRSS") {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, "m").exec(
      readFileSync(`/proc/${pid}/status`, "utf8"),
    );
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

export const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
