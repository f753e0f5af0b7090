/**
 * The rule `npm run check` holds the configuration's documents to (scripts/check-doc-paths.ts runs
 * it): every environment variable `app/env.server.ts` reads is listed in `.env.example` (as
 * `NAME=` or `# NAME=`) and named in backticks in a row of `docs/configuration.md`'s tables.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

export const ENV_MODULE = "app/env.server.ts";
export const ENV_EXAMPLE = ".env.example";
export const CONFIGURATION_DOC = "docs/configuration.md";

/** A key of the module's `schema` object (two spaces in), or a read of `source.NAME` or `process.env.NAME`. */
const SCHEMA_KEY = /^ {2}([A-Z][A-Z0-9_]*):/;
const NAMED_READ = /\b(?:source|process\.env)\.([A-Z][A-Z0-9_]*)\b/g;

/** The variables `moduleText`, the text of app/env.server.ts, reads, in the order it names them. */
export function variablesRead(moduleText: string): string[] {
  const names = new Set<string>();
  let inSchema = false;
  for (const line of moduleText.split("\n")) {
    if (/^const schema = \{/.test(line)) inSchema = true;
    else if (inSchema && /^\}/.test(line)) inSchema = false;
    else if (inSchema) {
      const key = SCHEMA_KEY.exec(line)?.[1];
      if (key) names.add(key);
    }
    for (const match of line.matchAll(NAMED_READ)) if (match[1]) names.add(match[1]);
  }
  return [...names];
}

/** The variables `.env.example` lists, set or commented out (`PORT=3000`, `# HOST=127.0.0.1`). */
export function variablesListed(exampleText: string): Set<string> {
  return new Set(
    exampleText.split("\n").flatMap((line) => {
      const name = /^#?\s*([A-Z][A-Z0-9_]*)=/.exec(line)?.[1];
      return name ? [name] : [];
    }),
  );
}

/** The variables a table row of `markdown` names in backticks. */
export function variablesTabled(markdown: string): Set<string> {
  return new Set(
    markdown
      .split("\n")
      .filter((line) => line.startsWith("|"))
      .flatMap((line) => [...line.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((match) => match[1] ?? "")),
  );
}

/** Each variable `root`'s env module reads that a document leaves out, as `file: NAME …` lines. */
export function checkEnvDocs(root: string): string[] {
  const modulePath = join(root, ENV_MODULE);
  if (!existsSync(modulePath)) return [];
  const read = (path: string) => (existsSync(join(root, path)) ? readFileSync(join(root, path), "utf8") : "");
  const listed = variablesListed(read(ENV_EXAMPLE));
  const tabled = variablesTabled(read(CONFIGURATION_DOC));
  return variablesRead(readFileSync(modulePath, "utf8")).flatMap((name) => [
    ...(listed.has(name) ? [] : [`${ENV_EXAMPLE}: ${name} is read by ${ENV_MODULE} but not listed`]),
    ...(tabled.has(name)
      ? []
      : [`${CONFIGURATION_DOC}: ${name} is read by ${ENV_MODULE} but not in its table`]),
  ]);
}
