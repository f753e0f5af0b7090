/**
 * The rule `npm run check` holds the documents to (scripts/check-doc-paths.ts runs it): every path
 * of the code (app/, server/, scripts/, bench/, tests/) that README.md or a document of docs/
 * names in backticks exists. The decision records (docs/decisions/) are left out: each records
 * its own time, with the paths of then.
 *
 * Only what looks like a path is judged: a span that is one path under one of those folders,
 * ending in a file's extension or a folder's slash (`app/leads/lead.ts`, `app/leads/`). A span
 * with a placeholder, a glob, braces or spaces (`tests/fixtures/releases/<commit>.tar.gz`,
 * `app/db/migrations/NNNN-words.sql`, `scripts/lib/{a, b}.ts`), a line number or a command is no
 * path, and is left alone.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";

/** The folders of the code whose paths the documents are held to. */
export const CODE_FOLDERS = ["app", "server", "scripts", "bench", "tests"] as const;

/** One path: a code folder, then names of letters, digits, `.`, `_`, `-` and `~`, ending in an extension or a slash. */
const CODE_PATH = new RegExp(`^(?:${CODE_FOLDERS.join("|")})/(?:[\\w.~-]+/)*(?:[\\w.~-]*\\.[A-Za-z0-9]+)?$`);

/** An inline code span: one or two backticks around text without a backtick. */
const CODE_SPAN = /(`{1,2})([^`\n]+?)\1(?!`)/g;

/** A fenced block's opening or closing line. */
const FENCE = /^\s*(```|~~~)/;

export interface MissingPath {
  line: number;
  path: string;
}

/** A name written as a placeholder in capitals: `NNNN-words.sql`, `XXX.ts`. */
const PLACEHOLDER = /(?:^|\/)(?:N{2,}|X{2,})(?=[-_./]|$)/;

/** Whether `text`, a code span's content, is a path the rule judges. */
export function looksLikeCodePath(text: string): boolean {
  return (
    CODE_PATH.test(text) && (text.endsWith("/") || /\.[A-Za-z0-9]+$/.test(text)) && !PLACEHOLDER.test(text)
  );
}

/** Each path `markdown` names in backticks (fenced blocks left out) that `exists` says is not there, with its line. */
export function findMissingPaths(markdown: string, exists: (path: string) => boolean): MissingPath[] {
  const missing: MissingPath[] = [];
  let fenced = false;
  markdown.split("\n").forEach((text, index) => {
    if (FENCE.test(text)) {
      fenced = !fenced;
      return;
    }
    if (fenced) return;
    for (const match of text.matchAll(CODE_SPAN)) {
      const path = (match[2] ?? "").trim();
      if (looksLikeCodePath(path) && !exists(path)) missing.push({ line: index + 1, path });
    }
  });
  return missing;
}

/** README.md and every document of docs/ but the decision records, in order. */
export function documentsOf(root: string): string[] {
  const docs = join(root, "docs");
  const walk = (folder: string): string[] =>
    readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) return path === join(docs, "decisions") ? [] : walk(path);
      return entry.name.endsWith(".md") ? [path] : [];
    });
  const readme = join(root, "README.md");
  return [...(existsSync(readme) ? [readme] : []), ...(existsSync(docs) ? walk(docs).sort() : [])];
}

/** Every missing path of `root`'s documents, as `file:line: `path` does not exist` lines. */
export function checkDocPaths(root: string): string[] {
  const exists = (path: string) => existsSync(resolve(root, path));
  return documentsOf(root).flatMap((file) =>
    findMissingPaths(readFileSync(file, "utf8"), exists).map(
      ({ line, path }) => `${relative(root, file)}:${line}: \`${path}\` does not exist`,
    ),
  );
}
