import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Migration } from "~/db/migrate.server";

/**
 * The committed fixture of the release before the one under test (tests/fixtures/previous-release,
 * refreshed at each release): its schema, as the migrations it shipped, and every statement it
 * sends to PostgreSQL. A rolling deploy runs it beside the new release on the new schema.
 */
export const PREVIOUS_RELEASE = resolve("tests/fixtures/previous-release");

const MIGRATION_HEADING = /^-- migration (\d+): (.*)$/gm;

/** schema.sql's text for `migrations`: each under a heading naming its version and name. */
export function schemaFixture(migrations: readonly Migration[]): string {
  const blocks = migrations.map(
    ({ version, name, sql }) => `-- migration ${version}: ${name}\n${shippedSql(sql)}\n`,
  );
  return [
    "-- The schema of the previous release: the migrations it shipped, in order, as it shipped them.",
    "-- Written by `npx vite-node scripts/previous-release-schema.ts` at each release.",
    "",
    blocks.join("\n"),
  ].join("\n");
}

/** A migration's SQL as schema.sql holds it: without the indentation it has in the code. */
export function shippedSql(sql: string): string {
  const lines = sql.trim().split("\n");
  const indents = lines.slice(1).flatMap((line) => (line.trim() ? [/^ */.exec(line)?.[0].length ?? 0] : []));
  const indent = Math.min(...indents);
  return [lines[0], ...lines.slice(1).map((line) => line.slice(indent))].join("\n").replace(/ +$/gm, "");
}

/** The migrations schema.sql holds. */
export function previousMigrations(): Migration[] {
  const text = readFileSync(resolve(PREVIOUS_RELEASE, "schema.sql"), "utf8");
  const headings = [...text.matchAll(MIGRATION_HEADING)];
  return headings.map((heading, index) => ({
    version: Number(heading[1]),
    name: heading[2] ?? "",
    sql: text.slice((heading.index ?? 0) + heading[0].length, headings[index + 1]?.index).trim(),
  }));
}

/** One statement of queries.sql, with the comment above it that says where it comes from. */
export interface PreviousStatement {
  source: string;
  sql: string;
}

/** The statements queries.sql holds, in order: each ends with ";" at the end of a line. */
export function previousStatements(): PreviousStatement[] {
  const text = readFileSync(resolve(PREVIOUS_RELEASE, "queries.sql"), "utf8");
  const statements: PreviousStatement[] = [];
  let source = "";
  let lines: string[] = [];
  for (const line of text.split("\n")) {
    if (lines.length === 0 && (line.startsWith("--") || line.trim() === "")) {
      if (line.startsWith("-- ")) source = line.slice(3);
      continue;
    }
    lines.push(line);
    if (line.trimEnd().endsWith(";")) {
      statements.push({ source, sql: lines.join("\n") });
      lines = [];
    }
  }
  if (lines.length > 0) throw new Error(`queries.sql ends inside a statement: ${lines.join("\n")}`);
  return statements;
}
