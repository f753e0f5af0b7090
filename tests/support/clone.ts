/**
 * A clone of this checkout's HEAD in the temp folder, for tests that run the project's commands on
 * what is committed (no build/, no app/content/generated/, no public/media/).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Clones `root`'s HEAD into a new folder of the temp folder (named from `prefix`) and returns its
 * path. Its node_modules is a folder of its own with a link per package of `root`'s (not the
 * tools' dot folders): what the build writes there (Vite's .vite-temp) stays in the clone, so
 * it builds when `root`'s node_modules is not the tester's to write.
 */
export function cloneHead(root: string, prefix: string): string {
  const clone = mkdtempSync(join(tmpdir(), prefix));
  // safe.directory: a clone by one user of a checkout owned by another (root in CI, or the reverse).
  execFileSync("git", ["-c", `safe.directory=${root}`, "clone", "--quiet", root, clone]);
  mkdirSync(join(clone, "node_modules"));
  for (const entry of readdirSync(join(root, "node_modules"))) {
    if (!entry.startsWith("."))
      symlinkSync(join(root, "node_modules", entry), join(clone, "node_modules", entry));
  }
  return clone;
}
