/**
 * The rule `npm run check` holds the source of app/, server/, scripts/ and bench/ to (scripts/check-file-comments.ts
 * runs it): every file opens with a comment saying its job, and every document a comment cites exists.
 *
 * Whether the first comment says the job in one sentence is for a reader to judge; that there is
 * one, and that a cited `docs/…md` (a decision record above all) resolves, a machine can keep true.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import ts from "typescript";

/** The folders whose source files are held to the rule. */
export const SOURCE_FOLDERS = ["app", "server", "scripts", "bench"] as const;

const SOURCE_FILE = /\.(?:[cm]?[jt]s|[jt]sx)$/;

/** A document path a comment names: `docs/…` ending in `.md`. */
const CITED_DOCUMENT = /\bdocs\/[\w./-]*?\.md\b/g;

/** What the first comment may follow: a byte-order mark, a shebang, blank lines and directives. */
const PREAMBLE = /^\uFEFF?(?:#![^\n]*\n)?(?:\s*(?:"use [\w ]+"|'use [\w ]+');?)*\s*/;

export interface CommentFault {
  line: number;
  what: string;
}

/** Whether `source` opens with a comment, after any shebang or directive. */
export function opensWithComment(source: string): boolean {
  const rest = source.replace(PREAMBLE, "");
  return rest.startsWith("//") || rest.startsWith("/*");
}

/** Every comment in `source`, with where it starts (the syntax tree's, so a `//` in a string is none). */
function comments(source: string, fileName: string): { text: string; pos: number }[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const seen = new Map<number, string>();
  const collect = (ranges: ts.CommentRange[] | undefined) => {
    for (const range of ranges ?? []) seen.set(range.pos, source.slice(range.pos, range.end));
  };
  const visit = (node: ts.Node): void => {
    collect(ts.getLeadingCommentRanges(source, node.pos));
    collect(ts.getTrailingCommentRanges(source, node.end));
    for (const child of node.getChildren(file)) visit(child);
  };
  visit(file);
  return [...seen].map(([pos, text]) => ({ pos, text })).sort((one, other) => one.pos - other.pos);
}

/**
 * What is wrong with one file's comments: no opening comment, or a cited document that
 * `exists` (given the path from the project's root) says is not there.
 */
export function findCommentFaults(
  source: string,
  exists: (path: string) => boolean,
  fileName = "sample.ts",
): CommentFault[] {
  const faults: CommentFault[] = [];
  if (!opensWithComment(source)) {
    faults.push({ line: 1, what: "does not open with a comment saying the file's job" });
  }
  const lineOf = (pos: number) => source.slice(0, pos).split("\n").length;
  for (const comment of comments(source, fileName)) {
    for (const match of comment.text.matchAll(CITED_DOCUMENT)) {
      if (!exists(match[0])) {
        faults.push({
          line: lineOf(comment.pos + (match.index ?? 0)),
          what: `cites ${match[0]}, which does not exist`,
        });
      }
    }
  }
  return faults;
}

function sourceFiles(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : sourceFiles(path);
    return SOURCE_FILE.test(entry.name) ? [path] : [];
  });
}

/** Every fault under `folders` of `root`, as `file:line what` lines, files in order. */
export function checkFileComments(root: string, folders: readonly string[] = SOURCE_FOLDERS): string[] {
  const exists = (path: string) => existsSync(resolve(root, path));
  return folders
    .flatMap((folder) => sourceFiles(resolve(root, folder)))
    .sort()
    .flatMap((path) => {
      const name = path.startsWith(root + sep) ? relative(root, path) : path;
      return findCommentFaults(readFileSync(path, "utf8"), exists, path).map(
        ({ line, what }) => `${name}:${line} ${what}`,
      );
    });
}
