/**
 * The git checkout `npm run content` lets decap-server edit. decap-server's git mode (the one with the editorial workflow) checks out branches, rebases
 * and commits with `git add .` in the folder it is given; on a developer's own checkout that
 * would sweep their uncommitted work into an editor's draft. So it gets a worktree of its own,
 * .cache/content-worktree on branch `content-edits`, sharing this repository's branches: drafts
 * are `cms/<collection>/<slug>` branches, and publishing merges one into `content-edits`
 * (docs/content-editing.md, docs/decisions/037-decap-cms.md). scripts/lib/local-editor.ts starts it.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

/** The branch published edits land on when no CONTENT_BRANCH is set. */
export const DEFAULT_CONTENT_BRANCH = "content-edits";

const git = (cwd: string, args: string[]) =>
  execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();

const succeeds = (cwd: string, args: string[]) => {
  try {
    git(cwd, args);
    return true;
  } catch {
    return false;
  }
};

export interface ContentCheckout {
  /** The folder decap-server edits. */
  dir: string;
  /** Its checked-out branch: Decap's `backend.branch`, the base of drafts and where publishing merges. */
  branch: string;
  /** One line for the developer about the state of that branch, if there is something to do. */
  note?: string;
}

/**
 * The worktree for editing `root`'s content: made on first use from `root`'s HEAD, then reused
 * (drafts survive a restart). When everything published there is already in `root`'s HEAD, it is
 * moved forward to HEAD, so the editor starts from the developer's latest commit. Never checks
 * out, resets or commits anything in `root` itself.
 */
export function prepareContentWorktree(root: string, branch = DEFAULT_CONTENT_BRANCH): ContentCheckout {
  if (!succeeds(root, ["rev-parse", "--verify", "HEAD"])) {
    throw new Error(
      `${root} is not a git repository with a commit: local editing's drafts are git branches (set CONTENT_REPO_DIRECTORY to a git checkout of your own)`,
    );
  }
  const dir = join(root, ".cache", "content-worktree");
  const head = git(root, ["rev-parse", "HEAD"]);
  if (!existsSync(join(dir, ".git"))) {
    // A worktree folder deleted by hand leaves a registration behind that blocks `worktree add`.
    git(root, ["worktree", "prune"]);
    const exists = succeeds(root, ["rev-parse", "--verify", `refs/heads/${branch}`]);
    git(root, ["worktree", "add", ...(exists ? [dir, branch] : ["-b", branch, dir, head])]);
  }
  const current = git(dir, ["rev-parse", "--abbrev-ref", "HEAD"]);
  if (current !== branch) {
    throw new Error(
      `${dir} has branch ${current} checked out, not ${branch}: check ${branch} out there (git -C ${dir} checkout ${branch})`,
    );
  }
  if (succeeds(root, ["merge-base", "--is-ancestor", branch, head])) {
    if (git(dir, ["rev-parse", "HEAD"]) !== head && git(dir, ["status", "--porcelain"]) === "") {
      git(dir, ["merge", "--ff-only", "--quiet", head]);
    }
    return { dir, branch };
  }
  return {
    dir,
    branch,
    note: `content: published edits on branch ${branch} are not in your branch yet: merge them with \`git merge ${branch}\``,
  };
}
