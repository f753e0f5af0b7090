import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Migration } from "~/db/migrate.server";
import { readMigrations } from "~/db/migrations.server";

/**
 * The committed fixture of the release before the one under test (tests/fixtures/previous-release,
 * written by `npm run release` from that release's archive and code): the migrations it shipped,
 * and every statement it sends to PostgreSQL. A rolling deploy runs it beside the new release on the new schema.
 */
export const PREVIOUS_RELEASE = resolve("tests/fixtures/previous-release");

/** The migrations the previous release shipped: its archive's build/migrations/ folder. */
export function previousMigrations(): Migration[] {
  return readMigrations(resolve(PREVIOUS_RELEASE, "migrations"));
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
