/**
 * A fault `npm run check:content` found, and the one line it prints for it: the page (with the
 * content file that makes it, where one does) or the file, then what is wrong.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";

export interface Fault {
  /** A path of the site (`/insights/x`) or a file of the repository (`content/insights/x.md`). */
  where: string;
  message: string;
}

/** Where the content of a page is edited: a case study's or an article's file. */
export function contentFileOf(root: string, path: string): string | null {
  const match = /^\/(case-studies|insights)\/([a-z0-9-]+)$/.exec(path);
  if (!match) return null;
  const file = `content/${match[1]}/${match[2]}.md`;
  return existsSync(join(root, file)) ? file : null;
}

/** One fault's line: `/insights/x (content/insights/x.md): the link "Pricing" to /y answers 404`. */
export function faultLine(root: string, fault: Fault): string {
  const file = fault.where.startsWith("/") ? contentFileOf(root, fault.where) : null;
  return `${fault.where}${file ? ` (${file})` : ""}: ${fault.message}`;
}
