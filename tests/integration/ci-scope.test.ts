import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";

// scripts/ci-scope.js as the workflow runs it, on a checkout of a pull request's merge commit
// (GitHub's refs/pull/N/merge: the base branch first, the pull request's head second), in a
// throwaway git repository.

const script = resolve(import.meta.dirname, "../../scripts/ci-scope.js");
let repository: string;

const git = (...args: string[]) =>
  execFileSync("git", ["-c", "user.name=Test", "-c", "user.email=test@example.com", ...args], {
    cwd: repository,
    encoding: "utf8",
  });

function write(path: string, text: string) {
  mkdirSync(dirname(join(repository, path)), { recursive: true });
  writeFileSync(join(repository, path), text);
}

/** A base branch, a pull request's branch from it that `change`s the files, a newer base, and their merge. */
function mergeOfPullRequest(change: () => void) {
  git("init", "--quiet", "--initial-branch=main");
  write("content/contact.yml", "phone: 1\n");
  write("app/page.ts", "export {};\n");
  git("add", ".");
  git("commit", "--quiet", "-m", "base");
  git("checkout", "--quiet", "-b", "cms/edit");
  change();
  git("add", "--all");
  git("commit", "--quiet", "-m", "the pull request");
  git("checkout", "--quiet", "main");
  // The base moved on meanwhile, outside content/: not the pull request's change.
  write("README.md", "The base moved on.\n");
  git("add", ".");
  git("commit", "--quiet", "-m", "main moved on");
  git("merge", "--quiet", "--no-ff", "-m", "merge", "cms/edit");
}

function scope() {
  const run = spawnSync(process.execPath, [script], { cwd: repository, encoding: "utf8" });
  expect(run.status, run.stderr).toBe(0);
  return { output: run.stdout, reason: run.stderr };
}

beforeEach(() => {
  repository = mkdtempSync(join(tmpdir(), "ci-scope-"));
});
afterEach(() => {
  rmSync(repository, { recursive: true, force: true });
});

it("a pull request that changes only content/ gets the content check", () => {
  mergeOfPullRequest(() => {
    write("content/contact.yml", "phone: 2\n");
    write("content/insights/new.md", "---\n---\n");
  });
  const { output, reason } = scope();
  expect(output).toBe("scope=content\n");
  expect(reason).toContain("2 changed files, all under content/: npm run check:content runs");
});

it("a pull request that changes anything else as well gets the whole suite, and the line names the file", () => {
  mergeOfPullRequest(() => {
    write("content/contact.yml", "phone: 2\n");
    write("app/page.ts", "export const x = 1;\n");
  });
  const { output, reason } = scope();
  expect(output).toBe("scope=full\n");
  expect(reason).toContain("app/page.ts is outside content/: .ci/run runs");
});

it("a file moved into content/ from elsewhere gets the whole suite: its old place changed too", () => {
  mergeOfPullRequest(() => git("mv", "app/page.ts", "content/page.ts"));
  expect(scope().output).toBe("scope=full\n");
});

it("a checkout without the base commit (too shallow) gets the whole suite, saying why", () => {
  git("init", "--quiet", "--initial-branch=main");
  write("content/contact.yml", "phone: 1\n");
  git("add", ".");
  git("commit", "--quiet", "-m", "only commit");
  const { output, reason } = scope();
  expect(output).toBe("scope=full\n");
  expect(reason).toMatch(/git diff HEAD\^1 HEAD failed \(.+\); the whole suite runs/);
});
