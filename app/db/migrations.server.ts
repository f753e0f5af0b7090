/**
 * Reads the schema's migrations: the numbered `.sql` files of app/db/migrations/, in order, with
 * their checksums.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Migration } from "~/db/migrate.server";

/**
 * The schema's migrations folder, beside the code that reads it: app/db/migrations/ from the
 * sources, build/migrations/ from the bundles (build/server.js, build/leads.js,
 * build/vitals.js), where scripts/build-commands.js copies it; the image ships build/ whole.
 */
export const MIGRATIONS_DIR = fileURLToPath(new URL("migrations/", import.meta.url));

/** `0001-leads-and-erasures.sql`: the version, then lowercase words joined by dashes. */
const FILE_NAME = /^(\d{4})-[a-z0-9]+(?:-[a-z0-9]+)*\.sql$/;

/**
 * The schema, in order: the `NNNN-words.sql` files of `dir`. Append a file; never edit one a
 * release has shipped (an edited one is reported at start and not run again). A file named
 * otherwise, or a version taken twice, is refused here rather than skipped.
 */
export function readMigrations(dir: string = MIGRATIONS_DIR): Migration[] {
  let files: string[];
  try {
    files = readdirSync(dir).filter((file) => !file.startsWith("."));
  } catch (error) {
    const cause = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new Error(
      `cannot read the migrations folder ${dir} (${cause}); the build is incomplete: run npm run build and ship build/ whole`,
    );
  }
  const migrations = files.sort().map((file): Migration => {
    const version = FILE_NAME.exec(file)?.[1];
    if (version === undefined) {
      throw new Error(
        `${join(dir, file)} is not named like 0001-leads-and-erasures.sql (four digits, a dash, lowercase words); rename it, or it would never run`,
      );
    }
    const bytes = readFileSync(join(dir, file));
    return {
      version: Number(version),
      file,
      sql: bytes.toString("utf8"),
      checksum: createHash("sha256").update(bytes).digest("hex"),
    };
  });
  migrations.forEach((migration, index) => {
    const previous = migrations[index - 1];
    if (previous?.version === migration.version) {
      throw new Error(
        `${previous.file} and ${migration.file} in ${dir} share version ${migration.version}; give the newer one the next free number`,
      );
    }
  });
  if (migrations.length === 0) {
    throw new Error(`the migrations folder ${dir} is empty; the build is incomplete: run npm run build`);
  }
  return migrations;
}

/**
 * The migrations of MIGRATIONS_DIR, or one line saying why they cannot be read, `who: …`, and
 * exit 1: a build without them cannot keep a database, and a deploy of it stops at its first
 * replica instead of serving beside the database.
 */
export function readMigrationsOrExit(who: string): Migration[] {
  try {
    return readMigrations();
  } catch (error) {
    console.error(`${who}: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
