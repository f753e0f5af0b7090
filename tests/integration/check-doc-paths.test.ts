import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { checkDocPaths, findMissingPaths, looksLikeCodePath } from "../../scripts/lib/doc-paths";
import { checkEnvDocs, variablesRead } from "../../scripts/lib/env-docs";
import { runCheckScript } from "../support/check-script";

const missing = (markdown: string, present: string[] = []) =>
  findMissingPaths(markdown, (path) => present.includes(path));

describe("the document-path rule (npm run check)", () => {
  it.each([
    "app/leads/lead.ts",
    "server/index.ts",
    "scripts/leads.ts",
    "tests/support/postgres.ts",
    "bench/lib/site-routes.ts",
    "app/leads/",
    "server/",
    "tests/fixtures/releases/README.md",
    "scripts/lib/",
  ])("judges %s, a path of the code", (text) => {
    expect(looksLikeCodePath(text)).toBe(true);
  });

  it.each([
    ["a placeholder in brackets", "tests/fixtures/releases/<commit>.tar.gz"],
    ["a placeholder in capitals", "app/db/migrations/NNNN-words.sql"],
    ["braces", "scripts/lib/{command-forms, lead-view}.ts"],
    ["a glob", "tests/**/*.ts"],
    ["a line number", "app/leads/lead.ts:42"],
    ["a command", "vite-node scripts/release.ts"],
    ["no extension and no slash", "app/leads/lead"],
    ["another folder", "docs/operations.md"],
    ["a route", "/app/leads/"],
    ["an import alias", "~/leads/lead"],
  ])("leaves alone a span with %s", (_, text) => {
    expect(looksLikeCodePath(text)).toBe(false);
  });

  it("names each missing path in backticks with its line, and none that exists", () => {
    const markdown = [
      "# Layout",
      "",
      "The store (`app/leads/contract.server.ts`) and `server/services.ts`, `app/gone/`.",
      "Words around app/leads/old.ts without backticks are prose.",
      "``scripts/lib/two.ts`` in double backticks.",
    ].join("\n");
    expect(missing(markdown, ["app/leads/contract.server.ts"])).toEqual([
      { line: 3, path: "server/services.ts" },
      { line: 3, path: "app/gone/" },
      { line: 5, path: "scripts/lib/two.ts" },
    ]);
  });

  it("leaves fenced blocks alone: a tree or a shell session is not a citation", () => {
    const markdown = ["```", "`app/leads/old.ts`", "```", "`app/leads/new.ts`"].join("\n");
    expect(missing(markdown)).toEqual([{ line: 4, path: "app/leads/new.ts" }]);
  });
});

describe("scripts/check-doc-paths.ts", () => {
  let root: string | undefined;
  afterEach(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it("reads README.md and docs/, never docs/decisions/, and lists file:line", () => {
    root = mkdtempSync(join(tmpdir(), "doc-paths-"));
    mkdirSync(join(root, "docs", "decisions"), { recursive: true });
    mkdirSync(join(root, "app", "leads"), { recursive: true });
    writeFileSync(join(root, "app", "leads", "lead.ts"), "// A lead.\n");
    writeFileSync(join(root, "README.md"), "# Site\n\n`app/leads/lead.ts` and `app/leads/gone.ts`\n");
    writeFileSync(join(root, "docs", "operations.md"), "# Ops\n`server/services.ts`\n");
    writeFileSync(join(root, "docs", "decisions", "001-old.md"), "# Old\n`server/services.ts`\n");
    expect(checkDocPaths(root)).toEqual([
      "README.md:3: `app/leads/gone.ts` does not exist",
      "docs/operations.md:2: `server/services.ts` does not exist",
    ]);
  });

  it("the script exits 1 naming file:line and the path, and 0 when every path exists", async () => {
    root = mkdtempSync(join(tmpdir(), "doc-paths-"));
    mkdirSync(join(root, "docs"), { recursive: true });
    mkdirSync(join(root, "server"), { recursive: true });
    writeFileSync(join(root, "server", "index.ts"), "// The server.\n");
    writeFileSync(join(root, "docs", "server.md"), "# Server\n\n`server/index.ts`\n");
    const run = () => runCheckScript("scripts/check-doc-paths.ts", [root as string]);
    expect(await run()).toEqual({ code: 0, stderr: "" });

    writeFileSync(join(root, "docs", "server.md"), "# Server\n\n`server/index.ts`, `server/services.ts`\n");
    const failed = await run();
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain("docs/server.md:3: `server/services.ts` does not exist");
    expect(failed.stderr).not.toContain("server/index.ts");
  }, 60_000);
});

describe("the configuration's documents (npm run check)", () => {
  let root: string | undefined;
  afterEach(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  /** A checkout whose env module reads PORT, NODE_ENV and TRUST_PROXY, and whose documents list `documented`. */
  function checkout(documented: { example: string[]; table: string[] }): string {
    const dir = mkdtempSync(join(tmpdir(), "env-docs-"));
    mkdirSync(join(dir, "app"), { recursive: true });
    mkdirSync(join(dir, "docs"), { recursive: true });
    writeFileSync(
      join(dir, "app", "env.server.ts"),
      [
        "const schema = {",
        "  PORT: z.coerce.number().default(3000),",
        '  NODE_ENV: z.enum(["development", "production"]).default("production"),',
        "  /** Nested: not a variable. */",
        "  TRUST_PROXY: z.object({",
        "    NESTED: z.string(),",
        "  }),",
        "} satisfies Record<string, z.ZodType>;",
        "const legacy = source.TRUST_PROXY;",
      ].join("\n"),
    );
    writeFileSync(join(dir, ".env.example"), documented.example.map((line) => `${line}\n`).join(""));
    writeFileSync(
      join(dir, "docs", "configuration.md"),
      ["| variable | meaning |", "|---|---|", ...documented.table.map((name) => `| \`${name}\` | … |`)].join(
        "\n",
      ),
    );
    return dir;
  }

  it("reads the schema's keys, not what is nested in them", () => {
    root = checkout({ example: [], table: [] });
    expect(variablesRead(readFileSync(join(root, "app", "env.server.ts"), "utf8"))).toEqual([
      "PORT",
      "NODE_ENV",
      "TRUST_PROXY",
    ]);
  });

  it("names a variable missing from .env.example or from the table, and nothing when both list it", () => {
    root = checkout({
      example: ["PORT=3000", "# NODE_ENV=production", "TRUST_PROXY=0"],
      table: ["PORT", "TRUST_PROXY"],
    });
    expect(checkEnvDocs(root)).toEqual([
      "docs/configuration.md: NODE_ENV is read by app/env.server.ts but not in its table",
    ]);
    rmSync(root, { recursive: true, force: true });
    root = checkout({ example: ["PORT=3000", "TRUST_PROXY=0"], table: ["PORT", "NODE_ENV", "TRUST_PROXY"] });
    expect(checkEnvDocs(root)).toEqual([
      ".env.example: NODE_ENV is read by app/env.server.ts but not listed",
    ]);
  });

  it("the script exits 1 naming the missing variable, and 0 once both documents have it", async () => {
    root = checkout({ example: ["PORT=3000", "TRUST_PROXY=0"], table: ["PORT", "TRUST_PROXY"] });
    const run = () => runCheckScript("scripts/check-doc-paths.ts", [root as string]);
    const failed = await run();
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain(".env.example: NODE_ENV is read by app/env.server.ts but not listed");
    expect(failed.stderr).toContain(
      "docs/configuration.md: NODE_ENV is read by app/env.server.ts but not in its table",
    );

    writeFileSync(join(root, ".env.example"), "PORT=3000\nNODE_ENV=production\nTRUST_PROXY=0\n");
    writeFileSync(
      join(root, "docs", "configuration.md"),
      "| variable | meaning |\n|---|---|\n| `PORT` | … |\n| `NODE_ENV` | … |\n| `TRUST_PROXY` | … |\n",
    );
    expect(await run()).toEqual({ code: 0, stderr: "" });
  }, 60_000);
});

describe("this checkout's configuration documents", () => {
  it("list every variable app/env.server.ts reads", () => {
    expect(checkEnvDocs(process.cwd())).toEqual([]);
  });
});
