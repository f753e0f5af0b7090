// A previous release's built server, run beside the current one for rolling-deploy tests: its
// committed build (tests/fixtures/releases/<commit>.tar.gz, packed by scripts/pack-release.ts)
// unpacked into a temporary folder that reaches this checkout's node_modules through a symlink,
// and started as a replica (tests/support/replicas.ts) with the same environment as the current build.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { type Replica, type ReplicaOptions, startReplica } from "./replicas";

/** The releases whose builds are committed, by the short commit their archive is named after. */
export const RELEASES = {
  /** The last release whose migrations were TypeScript strings, recorded without checksums. */
  typescriptMigrations: "ce1db06",
  /** The last release before per-lead destinations: every lead goes to EmailJS alone. */
  emailJsOnly: "5df2c5a",
} as const;

export type ReleaseCommit = (typeof RELEASES)[keyof typeof RELEASES];

export interface UnpackedRelease {
  commit: ReleaseCommit;
  /** Holds `package.json`, `build/`, `public/` and a `node_modules` symlink: a server's working folder. */
  folder: string;
  /** `build/version.txt`: the hash its pages' asset URLs carry. */
  version: string;
  /** Removes the folder (stop its servers first). */
  dispose(): void;
}

export const releaseArchive = (commit: ReleaseCommit) =>
  resolve("tests/fixtures/releases", `${commit}.tar.gz`);

/** Unpacks the release's archive into a folder of its own. */
export function unpackRelease(commit: ReleaseCommit): UnpackedRelease {
  const archive = releaseArchive(commit);
  if (!existsSync(archive)) {
    throw new Error(`no build of release ${commit} at ${archive}: pack it with scripts/pack-release.ts`);
  }
  const folder = mkdtempSync(join(tmpdir(), `release-${commit}-`));
  try {
    execFileSync("tar", ["-xzf", archive, "-C", folder]);
    // The release's dependencies are this checkout's: a release only adds to them.
    symlinkSync(resolve("node_modules"), join(folder, "node_modules"), "dir");
  } catch (error) {
    rmSync(folder, { recursive: true, force: true });
    throw error;
  }
  return {
    commit,
    folder,
    version: readFileSync(join(folder, "build", "version.txt"), "utf8").trim(),
    dispose: () => rmSync(folder, { recursive: true, force: true }),
  };
}

/**
 * A replica of `release` named `name`: the environment `startReplica` gives the current build
 * (one database, the EmailJS fake, the shared NOTICE_SECRET), plus `options.env`. Variables a
 * release does not know are ignored by it, so a test gives the new release's own (e.g.
 * LEAD_WEBHOOK_URL and LEAD_WEBHOOK_SECRET) to the current build's replicas only.
 * Stop it with `replica.server.stop()` (SIGTERM to its pid).
 */
export function startReleaseReplica(
  release: UnpackedRelease,
  name: string,
  options: Omit<ReplicaOptions, "cwd">,
): Promise<Replica> {
  return startReplica(name, { ...options, cwd: release.folder });
}
