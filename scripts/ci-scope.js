#!/usr/bin/env node
/**
 * Prints `scope=content` or `scope=full` for the GitHub workflow's output (.github/workflows/ci.yml),
 * from what the checked-out pull request changes: its merge commit against the first parent,
 * the base branch. Plain Node, run before `npm install`. One line on stderr says why.
 * Usage: node scripts/ci-scope.js [BASE HEAD]   (default: HEAD^1 HEAD)
 */
import { execFileSync } from "node:child_process";
import { scopeOf } from "./lib/ci-scope.js";

const [base = "HEAD^1", head = "HEAD"] = process.argv.slice(2);
let paths = [];
try {
  // Both sides of a rename: moving a file out of content/ changes what is outside it.
  const listed = execFileSync("git", ["diff", "--name-only", "--no-renames", "-z", base, head], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  paths = listed.split("\0");
} catch (error) {
  const reason = String(error.stderr ?? error.message)
    .trim()
    .split("\n")[0];
  console.error(`ci-scope: git diff ${base} ${head} failed (${reason}); the whole suite runs`);
}
const { scope, reason } = scopeOf(paths);
console.error(`ci-scope: ${reason}: ${scope === "content" ? "npm run check:content runs" : ".ci/run runs"}`);
console.log(`scope=${scope}`);
