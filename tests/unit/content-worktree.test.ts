import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { prepareContentWorktree } from "../../scripts/lib/content-worktree";

const identity = {
  GIT_AUTHOR_NAME: "Developer",
  GIT_AUTHOR_EMAIL: "dev@example.test",
  GIT_COMMITTER_NAME: "Developer",
  GIT_COMMITTER_EMAIL: "dev@example.test",
};
const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, { cwd, encoding: "utf8", env: { ...process.env, ...identity } }).trim();
const commit = (cwd: string, file: string, text: string) => {
  writeFileSync(join(cwd, file), text);
  git(cwd, "add", file);
  git(cwd, "commit", "--quiet", "--no-gpg-sign", "--message", `${file}: ${text}`);
};

let repo: string;
beforeEach(() => {
  repo = mkdtempSync(join(tmpdir(), "content-worktree-"));
  git(repo, "init", "--quiet", "--initial-branch=main");
  commit(repo, ".gitignore", "/.cache/\n");
  commit(repo, "page.md", "first");
});
afterEach(() => rmSync(repo, { recursive: true, force: true }));

describe("prepareContentWorktree", () => {
  it("makes .cache/content-worktree on branch content-edits from HEAD, leaving the developer's branch and uncommitted work alone", () => {
    writeFileSync(join(repo, "page.md"), "work in progress");
    const checkout = prepareContentWorktree(repo);
    expect(checkout).toEqual({ dir: join(repo, ".cache", "content-worktree"), branch: "content-edits" });
    expect(readFileSync(join(checkout.dir, "page.md"), "utf8")).toBe("first");
    expect(git(checkout.dir, "rev-parse", "--abbrev-ref", "HEAD")).toBe("content-edits");
    expect(git(repo, "rev-parse", "--abbrev-ref", "HEAD")).toBe("main");
    expect(git(repo, "status", "--porcelain")).toBe("M page.md");
  });

  it("moves the worktree forward to the developer's commit once its edits are merged", () => {
    const { dir } = prepareContentWorktree(repo);
    commit(dir, "case-study.md", "published");
    expect(prepareContentWorktree(repo).note).toBe(
      "content: published edits on branch content-edits are not in your branch yet: merge them with `git merge content-edits`",
    );
    git(repo, "merge", "--quiet", "--no-edit", "content-edits");
    commit(repo, "page.md", "second");
    expect(prepareContentWorktree(repo).note).toBeUndefined();
    expect(readFileSync(join(dir, "page.md"), "utf8")).toBe("second");
    expect(git(dir, "rev-parse", "HEAD")).toBe(git(repo, "rev-parse", "HEAD"));
  });

  it("refuses a folder that is not a git repository, naming what to do", () => {
    const plain = mkdtempSync(join(tmpdir(), "not-a-repo-"));
    try {
      expect(() => prepareContentWorktree(plain)).toThrow(/is not a git repository with a commit/);
    } finally {
      rmSync(plain, { recursive: true, force: true });
    }
  });
});
