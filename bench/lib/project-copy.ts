/** A copy of the project in a folder of the benchmark's, built from scratch there, the checkout never touched. */
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, lstatSync, mkdirSync, realpathSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { root } from "../../scripts/lib/server.js";

/**
 * Copies into `dir` the files git knows in the working tree (committed or not, ignored ones
 * left out), or a commit's with `ref`, and links node_modules: no build, no cache, as a
 * fresh checkout has.
 */
export function copyProject(dir: string, ref: string | undefined): void {
  if (ref) {
    const archive = execFileSync("git", ["archive", "--format=tar", ref], { cwd: root, maxBuffer: 1 << 30 });
    execFileSync("tar", ["-x", "-C", dir], { input: archive });
  } else {
    const listed = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
      cwd: root,
      maxBuffer: 1 << 28,
    });
    for (const file of listed.toString("utf8").split("\0")) {
      // A file deleted in the working tree is still listed until the deletion is staged.
      if (file === "" || !existsSync(join(root, file)) || lstatSync(join(root, file)).isDirectory()) continue;
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      copyFileSync(join(root, file), join(dir, file));
    }
  }
  symlinkSync(realpathSync(join(root, "node_modules")), join(dir, "node_modules"));
}
