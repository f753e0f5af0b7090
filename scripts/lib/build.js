/**
 * The build's steps, once: `npm run build` (scripts/build.js) runs them all, and `npm start`, the
 * benchmarks and the load test run them through `ensureBuild` when any part of the build is missing.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import {
  BUILT_CONTENT_RECORD,
  builtContentDirectory,
  contentDirectory,
  SHIPPED_CONTENT_DIR,
} from "./content-directory.js";
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
  const content = contentFolderOrExit();
  // Until the last step is done the build holds no content ensureBuild would take as finished.
  mkdirSync(join(root, "build"), { recursive: true });
  writeFileSync(join(root, BUILT_CONTENT_RECORD), `${content} (unfinished)\n`);
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
  // Which content the build holds: ensureBuild builds again when another is asked for.
  writeFileSync(join(root, BUILT_CONTENT_RECORD), `${content}\n`);
}

/**
 * Builds the site, as `npm run build` does, when any part of the build is missing, or when it
 * was made from another folder of content (the tests' build is of tests/fixtures/content).
 */
export function ensureBuild() {
  const wanted = contentFolderOrExit();
  const built = builtContentDirectory(root) ?? SHIPPED_CONTENT_DIR;
  if (!buildOutputs.every((output) => existsSync(join(root, output)))) {
    console.log("No build found: building the site first, as npm run build does.");
  } else if (built !== wanted) {
    console.log(`The build is of ${built}/, not ${wanted}/: building the site again, as npm run build does.`);
  } else {
    return;
  }
  runBuild();
}

/** The content folder to build from, or the process ends with the line saying what is wrong with CONTENT_DIR. */
function contentFolderOrExit() {
  try {
    return contentDirectory(root);
  } catch (error) {
    console.error(`build: ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  }
}
