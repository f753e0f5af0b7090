/**
 * `npm run bench:check-content`: how long `npm run check:content` takes as CI runs it on a pull
 * request that changes only content/, from a checkout with nothing built: on a fresh copy of the
 * project in the temp folder per run (the checkout is never touched). Prints each run's time,
 * the check's own steps, and the machine's cores and load, against the goal of 5 minutes.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { printTable } from "../scripts/lib/table.js";
import { copyProject } from "./lib/project-copy";

const USAGE = `usage: npm run bench:check-content [-- options]

Runs npm run check:content on a fresh copy of the project (in the temp folder: no build, no
cache, as a CI checkout), once per run, and prints each run's time, the check's own steps and the
load average, against the goal of 5 minutes on a machine of two cores.

  --runs N     runs, each on a copy of its own (1; 1 to 10)
  --ref REV    copy the files of a commit (git archive REV) instead of the working tree's`;

/** The goal for a content-only pull request's check on our 2-core machine (issue 52). */
const GOAL_SECONDS = 5 * 60;

const { values: flags } = parseArgs({
  args: process.argv.slice(2),
  options: { help: { type: "boolean" }, runs: { type: "string" }, ref: { type: "string" } },
});
if (flags.help) {
  console.log(USAGE);
  process.exit(0);
}
const runs = Number(flags.runs ?? 1);
if (!Number.isInteger(runs) || runs < 1 || runs > 10) {
  console.error(`bench:check-content: --runs must be a whole number from 1 to 10, not "${flags.runs}"`);
  process.exit(2);
}

const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");

interface Timed {
  seconds: number;
  loadBefore: string;
  loadAfter: string;
  /** The check's own steps, as its last line gives them: "building the site 12.1 s, …". */
  steps: string;
}

const copies: string[] = [];
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    for (const dir of copies) rmSync(dir, { recursive: true, force: true });
    process.exit(130);
  });
}

const results: Timed[] = [];
for (let run = 1; run <= runs; run++) {
  const dir = mkdtempSync(join(tmpdir(), "bench-check-content-"));
  copies.push(dir);
  try {
    copyProject(dir, flags.ref);
    console.error(`run ${run} of ${runs}: npm run check:content in ${dir}`);
    results.push(await timeCheck(dir));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

printTable(
  results.map((result, index) => ({
    run: index + 1,
    seconds: result.seconds.toFixed(1),
    "load before": result.loadBefore,
    "load after": result.loadAfter,
    "the check's steps": result.steps,
  })),
);
const slowest = Math.max(...results.map((result) => result.seconds));
const model = cpus()[0]?.model.trim() ?? "unknown CPU";
console.log(
  `\nnpm run check:content from a fresh copy: ${slowest.toFixed(1)} s at most over ${runs} run${runs === 1 ? "" : "s"}, ` +
    `on ${cpus().length} cores (${model}); goal ${GOAL_SECONDS} s: ${slowest <= GOAL_SECONDS ? "met" : "MISSED"}. ` +
    "The load average is the machine's (1, 5, 15 minutes): other work on it slows the check.",
);

/** Runs the copy's own `npm run check:content`, as CI does, and times it; a run with faults is no figure. */
async function timeCheck(dir: string): Promise<Timed> {
  const loadBefore = load();
  const started = performance.now();
  const child = spawn("npm", ["run", "-s", "check:content"], { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => {
    output += chunk;
  });
  child.stderr.on("data", (chunk: Buffer) => {
    output += chunk;
  });
  const [code] = (await once(child, "exit")) as [number | null];
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0) {
    console.error(output.split("\n").slice(-40).join("\n"));
    console.error(`bench:check-content: npm run check:content failed (exit ${code}); its output is above`);
    process.exit(1);
  }
  const steps = /^check:content: no faults; .*; [\d.]+ s \((.*)\)$/m.exec(output)?.[1] ?? "";
  return { seconds, loadBefore, loadAfter: load(), steps };
}
