/**
 * Packs a release's built server as a test fixture, tests/fixtures/releases/<commit>.tar.gz, so
 * that a rolling-deploy test runs that release beside the current one on a clean checkout,
 * without git history (tests/support/release-server.ts unpacks it).
 *
 * It checks the commit out into a temporary worktree, builds it with this checkout's
 * node_modules (a release only adds dependencies, so the current ones run it; the check that
 * they do is the rolling-deploy test), and packs what the image ships of it (package.json,
 * build/ and public/) less what no test serves: the build's metafiles, the field-metrics command
 * and the social preview image. The archive is reproducible: the same build packs to the same bytes.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

export const ROOT = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
export const RELEASES_DIR = join(ROOT, "tests", "fixtures", "releases");

export const git = (...args: string[]) => execFileSync("git", args, { cwd: ROOT, encoding: "utf8" }).trim();

export interface PackedRelease {
  /** The commit, as the archive is named: its first seven hex digits. */
  commit: string;
  archive: string;
  bytes: number;
}

/**
 * Builds and packs `commit`; `inCheckout` runs in its built worktree before it is removed (the
 * release's own scripts, run on its own code).
 */
export function packRelease(commit: string, inCheckout?: (checkout: string) => void): PackedRelease {
  const short = git("rev-parse", "--short=7", `${commit}^{commit}`);
  const committedAt = git("log", "-1", "--format=%ct", short);
  const work = mkdtempSync(join(tmpdir(), `release-${short}-`));
  const checkout = join(work, "checkout");
  git("worktree", "add", "--detach", checkout, short);
  try {
    symlinkSync(join(ROOT, "node_modules"), join(checkout, "node_modules"));
    // As the image builds it (vite-node, which runs this script, sets NODE_ENV to development).
    execFileSync("npm", ["run", "build"], {
      cwd: checkout,
      stdio: "inherit",
      env: { ...process.env, NODE_ENV: "production" },
    });
    const files = [
      "package.json",
      "build/server.js",
      "build/index.js",
      "build/leads.js",
      "build/version.txt",
      // SQL migrations are read at run time from beside the bundles (releases before them bundle theirs).
      ...(existsSync(join(checkout, "build", "migrations")) ? ["build/migrations"] : []),
      "public",
    ];
    const archive = join(RELEASES_DIR, `${short}.tar.gz`);
    const tar = join(work, "release.tar");
    execFileSync(
      "tar",
      [
        "--sort=name",
        "--owner=0",
        "--group=0",
        "--numeric-owner",
        `--mtime=@${committedAt}`,
        "--exclude=public/og-image.png",
        "-cf",
        tar,
        ...files,
      ],
      { cwd: checkout, stdio: "inherit" },
    );
    // Node's gzip header carries no time or name, so the bytes depend on the build alone.
    writeFileSync(archive, gzipSync(readFileSync(tar), { level: 9 }));
    inCheckout?.(checkout);
    return { commit: short, archive, bytes: statSync(archive).size };
  } finally {
    git("worktree", "remove", "--force", checkout);
    rmSync(work, { recursive: true, force: true });
  }
}
