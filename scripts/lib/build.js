/**
 * The build's steps, once: `npm run build` (scripts/build.js) runs them all, and `npm start`, the
 * benchmarks and the load test run them through `ensureBuild` when any part of the build is missing.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { root } from "./server.js";

const require = createRequire(import.meta.url);
const remix = join(dirname(require.resolve("@remix-run/dev/package.json")), "dist", "cli.js");
const viteNode = join(dirname(require.resolve("vite-node/package.json")), "vite-node.mjs");

/** In order: each a name (its script's) and the Node script with its arguments, run in the root. */
export const buildSteps = [
  // Validates content/ and writes app/content/generated/ and public/media/, which remix build reads.
  { name: "build-content", args: [viteNode, "scripts/build-content.ts"] },
  { name: "remix build", args: [remix, "build"] },
  { name: "compile-hints", args: ["scripts/compile-hints.js"] },
  { name: "build-commands", args: ["scripts/build-commands.js"] },
  { name: "build-media", args: [viteNode, "scripts/build-media.ts"] },
];

/** What the build writes: when one is missing, `ensureBuild` builds. */
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

/** Runs every step in the repository's root; the first that fails ends the process with one line naming it. */
export function runBuild() {
  for (const step of buildSteps) {
    // A production build whoever calls: vite-node (the bench, the load test) sets NODE_ENV=development.
    const env = { ...process.env, NODE_ENV: "production" };
    const run = spawnSync(process.execPath, step.args, { cwd: root, stdio: "inherit", env });
    if (run.status !== 0) {
      console.error(
        `build: ${step.name} failed (${run.error?.message ?? `exit ${run.status ?? run.signal}`}); its output above says why`,
      );
      process.exit(1);
    }
  }
}

/** Builds the site, as `npm run build` does, when any part of the build is missing. */
export function ensureBuild() {
  if (buildOutputs.every((output) => existsSync(join(root, output)))) return;
  console.log("No build found: building the site first, as npm run build does.");
  runBuild();
}
