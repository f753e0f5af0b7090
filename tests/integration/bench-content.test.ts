import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

// `npm run bench:content` end to end at a tiny size: it copies the project, writes the content,
// builds the copy, serves it and prints every figure, then removes its copy. One build of the
// copy (no baseline) takes about a minute on two busy cores, hence the test's limit.

const viteNode = join(process.cwd(), "node_modules", ".bin", "vite-node");
const run = (args: string[]) =>
  promisify(execFile)(viteNode, ["bench/bench-content.ts", ...args], {
    cwd: process.cwd(),
    maxBuffer: 1 << 24,
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      stdout: error.stdout,
      stderr: error.stderr,
    }),
  );

const markdownIn = (folder: string) =>
  readdirSync(join(process.cwd(), "content", folder)).filter((name) => name.endsWith(".md")).length;

/** The raster images content/'s files name (each made responsive by the build, as the benchmark's photos are). */
function rasterImagesNamed(): number {
  const dir = join(process.cwd(), "content");
  const texts = readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((file) => /\.(md|yml)$/.test(file))
    .map((file) => readFileSync(join(dir, file), "utf8"));
  return new Set(texts.flatMap((text) => text.match(/images\/[\w.-]+\.(?:jpe?g|png|webp|avif)\b/g) ?? []))
    .size;
}

/** The table's cell of one figure (the generated content's column, the last). */
function figure(stdout: string, name: string): string {
  const line = stdout.split("\n").find((row) => row.startsWith(`${name}  `));
  expect(line, `the table has a row "${name}"`).toBeDefined();
  return (line ?? "").slice(name.length).trim();
}

describe("npm run bench:content", () => {
  it("builds a copy with 5 articles and 2 case studies, serves it and prints every figure", async () => {
    const result = await run(["--articles", "5", "--case-studies", "2", "--images", "1", "--skip-baseline"]);
    expect(result.code, result.stderr).toBe(0);
    const { stdout, stderr } = result;

    const articles = markdownIn("insights") + 5;
    const studies = markdownIn("case-studies") + 2;
    expect(figure(stdout, "content")).toMatch(
      new RegExp(
        `^${articles} articles \\(\\d+ in Hindi\\), ${studies} case studies, 2 photos \\(\\d+ MB\\)$`,
      ),
    );
    for (const step of ["build: build-content", "build: remix build", "build: build-media", "build: total"]) {
      expect(figure(stdout, step)).toMatch(/^\d+\.\d s$/);
    }
    // Every article and case study has its Open Graph image, and the lists and the site's pages theirs.
    const og = /^(\d+) PNGs in \d+\.\d s$/.exec(figure(stdout, "Open Graph images (in build-media)"));
    expect(Number(og?.[1])).toBeGreaterThan(articles + studies);
    const responsive = figure(stdout, "responsive images (in build:content)");
    if (responsive !== "none: this build makes none") {
      // SVGs pass through: the raster ones are the two photos and those content/ names (it takes its
      // expectation from the content it copies, which an editor may have given a photo).
      expect(responsive).toMatch(
        new RegExp(`^${2 + rasterImagesNamed()} images, \\d+ files in \\d+\\.\\d s$`),
      );
    }
    const pages = /^(\d+) in \d+\.\d s$/.exec(figure(stdout, "pages fetched"));
    expect(Number(pages?.[1])).toBeGreaterThan(articles + studies);
    expect(figure(stdout, "largest page HTML (raw, gzip -9)")).toMatch(/^\d+\.\d KB, \d+\.\d KB: \/\S*$/);
    expect(figure(stdout, "largest article HTML (raw, gzip -9)")).toMatch(
      /^\d+\.\d KB, \d+\.\d KB: \/insights\/[a-z0-9-]+$/,
    );
    expect(figure(stdout, "largest case study HTML (raw, gzip -9)")).toMatch(
      /^\d+\.\d KB, \d+\.\d KB: \/case-studies\/[a-z0-9-]+$/,
    );
    for (const memory of ["server RSS once started", "server RSS after every page", "server peak RSS"]) {
      expect(Number(/^(\d+\.\d) MB$/.exec(figure(stdout, memory))?.[1])).toBeGreaterThan(10);
    }
    // Its copy of the project is gone.
    const copies = [...stderr.matchAll(/copying the project into (\S+)/g)].map((match) => match[1] ?? "");
    expect(copies).toHaveLength(1);
    for (const copy of copies) expect(existsSync(copy), copy).toBe(false);
  }, 240_000);

  it("refuses a case study without its cover in one line", async () => {
    const result = await run(["--images", "0"]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe('bench:content: --images must be a whole number from 1 to 9, not "0"');
  });
});
