/**
 * Which paths the local editor may name: files and folders under the checkout's `content/`,
 * written as Decap writes them (`content/case-studies/ledgerly.md`), with no `.` or `..` segment,
 * no hidden name (`.git`, `.github`, `.gitattributes`), and no link out of `content/` on disk;
 * and, for the media library and uploads, files in `content/images/` only.
 */
import { lstat, realpath } from "node:fs/promises";
import { dirname, isAbsolute, join, relative, sep } from "node:path";
import { MEDIA_FOLDER } from "../../../scripts/admin/decap-config";

/** The folder of the checkout every path must stay in. */
export const CONTENT_FOLDER = "content";

const MAX_PATH_LENGTH = 512;

/** Why `path` is not a path under content/ as written, or undefined when it is one. */
export function contentPathProblem(path: string): string | undefined {
  if (path.length === 0 || path.length > MAX_PATH_LENGTH) return "is empty or too long";
  // Control characters and backslashes: Decap writes neither, and Windows reads `\` as a separator.
  if ([...path].some((c) => c < " " || c === "\u007f" || c === "\\")) {
    return "has a control character or a backslash";
  }
  const segments = path.split("/");
  if (segments[0] !== CONTENT_FOLDER || segments.length < 2) return "is not under content/";
  for (const segment of segments.slice(1)) {
    if (segment === "" || segment === "." || segment === "..") return "has an empty, . or .. segment";
    if (segment.startsWith(".")) return "names a hidden file or folder";
  }
  return undefined;
}

/** Why `path` is not a file directly in content/images/ as written, or undefined when it is one. */
export function mediaPathProblem(path: string): string | undefined {
  const problem = contentPathProblem(path);
  if (problem) return problem;
  const name = path.slice(MEDIA_FOLDER.length + 1);
  return path.startsWith(`${MEDIA_FOLDER}/`) && name !== "" && !name.includes("/")
    ? undefined
    : `is not a file in ${MEDIA_FOLDER}/`;
}

const inside = (folder: string, path: string) => {
  const rest = relative(folder, path);
  return rest !== ".." && !rest.startsWith(`..${sep}`) && !isAbsolute(rest);
};

/** The real location of `path`, or of its deepest existing folder when it does not exist yet. */
async function realLocation(path: string): Promise<string> {
  let existing = path;
  for (;;) {
    try {
      await lstat(existing);
      return join(await realpath(existing), relative(existing, path));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT" || dirname(existing) === existing) throw error;
      existing = dirname(existing);
    }
  }
}

/**
 * The first of `paths` (each already past contentPathProblem) that a link on disk takes out of
 * the checkout's content/, or undefined when every one stays in it.
 */
export async function pathLeavingContent(repository: string, paths: string[]): Promise<string | undefined> {
  const root = await realpath(repository);
  const content = await realLocation(join(repository, CONTENT_FOLDER));
  if (!inside(root, content) || content === root) return CONTENT_FOLDER;
  for (const path of paths) {
    const real = await realLocation(join(repository, path));
    if (real === content || !inside(content, real)) return path;
  }
  return undefined;
}
