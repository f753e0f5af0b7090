/**
 * Which folder of content the build reads: `content/`, or the folder `CONTENT_DIR` names (the
 * tests' own set, tests/fixtures/content). The variable is read here and nowhere else.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { isAbsolute, join, relative, resolve } from "node:path";

/** The content that ships, edited at /admin. */
export const SHIPPED_CONTENT_DIR = "content";

/** The file in which a build records the folder of content it was made from. */
export const BUILT_CONTENT_RECORD = "build/content-directory.txt";

/**
 * The content folder the build is to read, relative to `root` (`content` unless `CONTENT_DIR`
 * names another folder of the repository). A folder that does not exist or lies outside the
 * repository ends the process with one line naming the variable.
 *
 * @param {string} root the repository's root
 * @param {Record<string, string | undefined>} [environment]
 * @returns {string}
 */
export function contentDirectory(root, environment = process.env) {
  const named = environment.CONTENT_DIR?.trim();
  if (!named) return SHIPPED_CONTENT_DIR;
  const folder = relative(root, resolve(root, named));
  if (folder === "" || folder.startsWith("..") || isAbsolute(folder)) {
    throw new Error(`CONTENT_DIR=${named} is not a folder inside the repository (${root})`);
  }
  if (!existsSync(join(root, folder)) || !statSync(join(root, folder)).isDirectory()) {
    throw new Error(`CONTENT_DIR=${named} names no folder: ${join(root, folder)} does not exist`);
  }
  return folder;
}

/**
 * The content folder the build in `build/` was made from, or null when there is no record (no
 * build, or one made before builds recorded it).
 *
 * @param {string} root
 * @returns {string | null}
 */
export function builtContentDirectory(root) {
  const record = join(root, BUILT_CONTENT_RECORD);
  return existsSync(record) ? readFileSync(record, "utf8").trim() : null;
}
