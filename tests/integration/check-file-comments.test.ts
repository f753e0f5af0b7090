import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { checkFileComments, findCommentFaults, opensWithComment } from "../../scripts/lib/file-comments";
import { runCheckScript } from "../support/check-script";

const DECISION = "docs/decisions/023-one-guard-per-danger.md";
const exists = (path: string) => path === DECISION;
const whats = (source: string) => findCommentFaults(source, exists).map((fault) => fault.what);

describe("the file-comment rule (npm run check)", () => {
  it.each([
    ["a file comment", '/** Sends one lead. */\nimport { x } from "y";\n'],
    ["a line comment", '// Sends one lead.\nimport { x } from "y";\n'],
    ["a shebang, then a comment", "#!/usr/bin/env node\n// Starts the server.\nrun();\n"],
    ["a directive, then a comment", '"use strict";\n/** Starts the server. */\nrun();\n'],
    ["blank lines, then a comment", "\n\n/** Sends one lead. */\nexport {};\n"],
  ])("accepts %s", (_, source) => {
    expect(opensWithComment(source)).toBe(true);
    expect(whats(source)).toEqual([]);
  });

  it.each([
    ["an import first", 'import { x } from "y";\n/** Sends one lead. */\n'],
    ["code first", "export const a = 1; // the answer\n"],
    ["a shebang, then code", "#!/usr/bin/env node\nrun();\n"],
    ["an empty file", ""],
  ])("names a file that opens with %s", (_, source) => {
    expect(whats(source)).toEqual(["does not open with a comment saying the file's job"]);
  });

  it("names a decision record that does not exist, with its line", () => {
    const source = `/** Delivery (${DECISION}). */\nconst a = 1;\n// why: docs/decisions/099-no-such.md\n`;
    expect(findCommentFaults(source, exists)).toEqual([
      { line: 3, what: "cites docs/decisions/099-no-such.md, which does not exist" },
    ]);
  });

  it("names the old single decisions file", () => {
    expect(whats("/** Why: docs/decisions.md, 'Delivery'. */\n")).toEqual([
      "cites docs/decisions.md, which does not exist",
    ]);
  });

  it("reads comments only: a path in a string or a template is not a citation", () => {
    const source = '/** Links. */\nconst a = "see docs/missing.md";\nconst b = `// docs/gone.md`;\n';
    expect(whats(source)).toEqual([]);
  });

  it("reads comments inside JSX", () => {
    const source = "/** A page. */\nexport const P = () => <main>{/* docs/missing.md */}</main>;\n";
    expect(whats(source)).toEqual(["cites docs/missing.md, which does not exist"]);
  });
});

describe("scripts/check-file-comments.ts", () => {
  let root: string | undefined;
  afterEach(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it("lists the faults of a folder as file:line, in order, and passes a clean one", () => {
    root = mkdtempSync(join(tmpdir(), "file-comments-"));
    mkdirSync(join(root, "app", "leads"), { recursive: true });
    mkdirSync(join(root, "docs", "decisions"), { recursive: true });
    writeFileSync(join(root, "docs", "decisions", "001-stack.md"), "# Stack\n");
    writeFileSync(join(root, "app", "good.ts"), "/** Good (docs/decisions/001-stack.md). */\nexport {};\n");
    writeFileSync(join(root, "app", "leads", "bare.tsx"), "export const a = 1;\n");
    writeFileSync(join(root, "app", "cites.js"), "// Cites.\n/* docs/decisions/002-gone.md */\n");
    writeFileSync(join(root, "app", "notes.md"), "not source\n");
    expect(checkFileComments(root, ["app"])).toEqual([
      "app/cites.js:2 cites docs/decisions/002-gone.md, which does not exist",
      "app/leads/bare.tsx:1 does not open with a comment saying the file's job",
    ]);
    rmSync(join(root, "app", "leads", "bare.tsx"));
    rmSync(join(root, "app", "cites.js"));
    expect(checkFileComments(root, ["app"])).toEqual([]);
  });

  it("the script exits 1 naming the file when a folder breaks the rule, and 0 when it keeps it", async () => {
    root = mkdtempSync(join(tmpdir(), "file-comments-"));
    const run = (folder: string) => runCheckScript("scripts/check-file-comments.ts", [folder]);
    writeFileSync(join(root, "good.ts"), "/** Good. */\nexport const a = 1;\n");
    expect(await run(root)).toEqual({ code: 0, stderr: "" });

    writeFileSync(join(root, "bare.ts"), "export const a = 1;\n");
    const failed = await run(root);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain(`${join(root, "bare.ts")}:1 does not open with a comment`);
    expect(failed.stderr).not.toContain("good.ts");
  }, 60_000);
});
