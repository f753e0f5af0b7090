/**
 * Reads a content file's YAML (a YAML file, or a Markdown file's front matter) as plain data: the
 * YAML 1.2 core schema, no tags at all (an unknown or explicit `!tag` is refused, not turned
 * into a string, a Buffer or a Date), duplicate keys refused, and aliases capped so a small file
 * cannot expand into a huge one (docs/content-editing.md, "What a content file may hold").
 */
import { parseDocument } from "yaml";

/** The `yaml` package's own default, stated: an alias may stand for at most this many nodes in all. */
const MAX_ALIAS_COUNT = 100;

export type YamlData = { ok: true; data: unknown } | { ok: false; line?: number; message: string };

/** The data of `text`, or its first fault with the line (from 1) where the YAML parser found it. */
export function readYamlData(text: string): YamlData {
  const document = parseDocument(text, {
    schema: "core",
    resolveKnownTags: false,
    uniqueKeys: true,
    prettyErrors: false,
    logLevel: "silent",
  });
  const [problem] = [...document.errors, ...document.warnings];
  if (problem) {
    const line = text.slice(0, problem.pos[0]).split("\n").length;
    return { ok: false, line, message: problem.message.split("\n")[0] ?? "" };
  }
  try {
    return { ok: true, data: document.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) };
  } catch (error) {
    return { ok: false, message: (error as Error).message.split("\n")[0] ?? "" };
  }
}
