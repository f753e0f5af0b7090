/**
 * `npm run bench:publish`: each step of a content-only pull request's way to a new server, timed
 * on this machine: the content check, `npm run build`, and the image's build replayed stage by
 * stage without Docker (which cannot run here), then the server's start on it.
 */
import { execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import {
  copyFileSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { root } from "../scripts/lib/server.js";
import { printTable } from "../scripts/lib/table.js";
import { startServer } from "../tests/support/server-process";

const USAGE = `usage: npm run bench:publish [-- --runs N]

Times, N times each (3), what a content-only pull request goes through on this machine:
  check     npm run check:content (or, where it is not a script yet, the content build's --check)
  build     npm run build in this checkout (dependencies installed, images cached)
  image     the Dockerfile's stages without Docker, in the temp folder: the dependencies
            (npm install), the build on the image's files (no image cache, as in Docker),
            the runtime's production dependencies, and the built server's start to /healthz
and prints the median and every run, the load average, and the size of what a content change
alters in the image (build/ and public/). Run it with the load average below 1.`;

const { values: flags } = parseArgs({ options: { help: { type: "boolean" }, runs: { type: "string" } } });
if (flags.help) {
  console.log(USAGE);
  process.exit(0);
}
const runs = Number(flags.runs ?? 3);
if (!Number.isInteger(runs) || runs < 1 || runs > 20) {
  console.error(`bench:publish: --runs must be a whole number from 1 to 20, not "${flags.runs}"`);
  process.exit(2);
}

const scripts = (
  JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { scripts: Record<string, string> }
).scripts;
const check = scripts["check:content"]
  ? { label: "npm run check:content", command: ["npm", "run", "-s", "check:content"] }
  : {
      label: "vite-node scripts/build-content.ts --check (npm run check:content is not a script here)",
      command: ["npx", "vite-node", "scripts/build-content.ts", "--check"],
    };

/** Runs a command to its end and returns its wall time in seconds; its output is shown only if it fails. */
async function timed(command: string[], cwd: string): Promise<number> {
  const [file, ...args] = command as [string, ...string[]];
  const started = performance.now();
  const child = spawn(file, args, { cwd, env: process.env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => {
    output += chunk;
  });
  child.stderr.on("data", (chunk: Buffer) => {
    output += chunk;
  });
  const [code] = (await once(child, "exit")) as [number | null];
  if (code !== 0)
    throw new Error(`${command.join(" ")} failed (exit ${code}) in ${cwd}:\n${output.slice(-4000)}`);
  return (performance.now() - started) / 1000;
}

/** The files `COPY . .` would bring: those git knows in the working tree (ignored build output left out). */
function copyContext(to: string): void {
  const listed = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: root,
    encoding: "utf8",
    maxBuffer: 1 << 28,
  });
  for (const file of listed.split("\0")) {
    const from = join(root, file);
    if (file === "" || !existsSync(from) || lstatSync(from).isDirectory()) continue;
    mkdirSync(dirname(join(to, file)), { recursive: true });
    copyFileSync(from, join(to, file));
  }
}

function bytesUnder(path: string): number {
  if (!existsSync(path)) return 0;
  if (!statSync(path).isDirectory()) return statSync(path).size;
  return readdirSync(path, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .reduce((sum, entry) => sum + statSync(join(entry.parentPath, entry.name)).size, 0);
}

const progress = (line: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");

/** One replay of the Dockerfile's stages in the temp folder: each stage's seconds, and the sizes. */
async function imageStages(): Promise<{ seconds: Record<string, number>; sizes: Record<string, number> }> {
  const stage = mkdtempSync(join(tmpdir(), "bench-publish-"));
  try {
    const build = join(stage, "build-stage");
    const runtime = join(stage, "runtime-stage");
    for (const dir of [build, runtime]) {
      mkdirSync(dir);
      for (const file of ["package.json", "package-lock.json"])
        copyFileSync(join(root, file), join(dir, file));
    }
    const seconds: Record<string, number> = {};
    progress("image: deps (npm install)");
    seconds.deps = await timed(["npm", "install", "--no-audit", "--no-fund"], build);
    copyContext(build);
    progress("image: build (npm run build, no image cache)");
    seconds.build = await timed(["npm", "run", "-s", "build"], build);
    progress("image: runtime (npm install --omit=dev)");
    seconds.runtime = await timed(["npm", "install", "--omit=dev", "--no-audit", "--no-fund"], runtime);
    for (const folder of ["build", "public"])
      cpSync(join(build, folder), join(runtime, folder), { recursive: true });
    progress("image: the server's start to /healthz");
    const started = performance.now();
    const server = await startServer({ cwd: runtime, quiet: true });
    seconds.start = (performance.now() - started) / 1000;
    await server.stop();
    return {
      seconds,
      sizes: {
        "build/": bytesUnder(join(runtime, "build")),
        "public/": bytesUnder(join(runtime, "public")),
        "node_modules/ (production)": bytesUnder(join(runtime, "node_modules")),
      },
    };
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

const times: Record<string, number[]> = {};
const record = (step: string, value: number) => {
  times[step] = [...(times[step] ?? []), value];
};
let sizes: Record<string, number> = {};
const loadBefore = load();
for (let run = 1; run <= runs; run += 1) {
  progress(`run ${run} of ${runs}: ${check.label}`);
  record("check", await timed(check.command, root));
  progress(`run ${run} of ${runs}: npm run build`);
  record("npm run build", await timed(["npm", "run", "-s", "build"], root));
  const image = await imageStages();
  record("image: deps (npm install)", image.seconds.deps ?? 0);
  record("image: build (npm run build, no image cache)", image.seconds.build ?? 0);
  record("image: runtime (npm install --omit=dev)", image.seconds.runtime ?? 0);
  record("image: server start to /healthz", image.seconds.start ?? 0);
  sizes = image.sizes;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};
console.log(
  `bench:publish: ${runs} run(s), ${new Date().toISOString()}; load average ${loadBefore} before, ${load()} after`,
);
console.log(`check: ${check.label}`);
printTable(
  Object.entries(times).map(([step, values]) => ({
    step,
    "median s": median(values).toFixed(1),
    "each run, s": values.map((value) => value.toFixed(1)).join(" "),
  })),
);
printTable(
  Object.entries(sizes).map(([folder, bytes]) => ({ "in the image": folder, MB: (bytes / 1e6).toFixed(1) })),
);
