import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A temporary migrations folder holding `files` (name → SQL); `write` adds or edits one. */
export function migrationsFolder(files: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), "migrations-"));
  const write = (file: string, sql: string) => writeFileSync(join(dir, file), sql);
  for (const [file, sql] of Object.entries(files)) write(file, sql);
  return { dir, write, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
