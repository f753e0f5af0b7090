/**
 * Splits a Markdown content file into its front matter and its body. Front matter is YAML and
 * nothing else: the file opens with a line of three hyphens alone, and a `---js`, `---coffee` or
 * any other `---<word>` (which front-matter libraries run as code) is refused, never evaluated
 * (docs/content-editing.md, "What a content file may hold").
 */

export type FrontMatter =
  | {
      ok: true;
      /** The YAML between the two `---` lines. */
      yaml: string;
      body: string;
      /** The file's line on which the body starts, from 1. */
      bodyLine: number;
    }
  | { ok: false; line: number; message: string };

const DELIMITER = /^---[ \t]*$/;

/** The front matter and body of `raw`; a file without front matter has an empty one. */
export function splitFrontMatter(raw: string): FrontMatter {
  const text = raw.startsWith("\uFEFF") ? raw.slice(1) : raw;
  const lines = text.split("\n").map((line) => line.replace(/\r$/, ""));
  const [first = ""] = lines;
  if (!first.startsWith("---")) return { ok: true, yaml: "", body: text, bodyLine: 1 };
  if (!DELIMITER.test(first)) {
    return {
      ok: false,
      line: 1,
      message: `front matter is YAML only, and "${first.slice(0, 40)}" asks for something else: start the file with a line of three hyphens alone`,
    };
  }
  const close = lines.findIndex((line, index) => index > 0 && DELIMITER.test(line));
  if (close === -1) {
    return { ok: false, line: 1, message: "front matter has no closing line of three hyphens" };
  }
  const raws = text.split("\n");
  return {
    ok: true,
    yaml: raws.slice(1, close).join("\n"),
    body: raws.slice(close + 1).join("\n"),
    bodyLine: close + 2,
  };
}
