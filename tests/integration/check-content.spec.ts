import { spawn } from "node:child_process";
import { once } from "node:events";
import { appendFileSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { splitFrontMatter } from "../../scripts/lib/content/front-matter";
import { readYamlData } from "../../scripts/lib/content/yaml-data";
import { cloneHead } from "../support/clone";

// `npm run check:content` as CI runs it on a pull request that changes only content/: on a clone
// of HEAD (scripts/check-content.ts builds into the checkout it runs in, and this checkout's build
// serves the other tests), with the shipped content, then with broken content files. The files
// broken are picked from the clone's content, never named here.

const root = process.cwd();
/** The build, the content tests, every page served and the audits, on a busy machine of two cores. */
const CHECK_MS = 10 * 60_000;

let clone: string;
test.beforeEach(() => {
  clone = cloneHead(root, "check-content-");
});
test.afterEach(() => {
  rmSync(clone, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

async function checkContent(): Promise<Run> {
  const child = spawn("npm", ["run", "-s", "check:content"], {
    cwd: clone,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => {
    stdout += chunk;
  });
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  const [code] = (await once(child, "exit")) as [number | null];
  return { code, stdout, stderr };
}

/** The clone's Markdown files of a collection that are pages of the site today: published, dated up to today. */
function servedEntries(collection: string): string[] {
  const folder = join(clone, "content", collection);
  const today = new Date().toISOString().slice(0, 10);
  return readdirSync(folder)
    .filter((name) => name.endsWith(".md"))
    .sort()
    .filter((name) => {
      const split = splitFrontMatter(readFileSync(join(folder, name), "utf8"));
      const read = split.ok ? readYamlData(split.yaml) : undefined;
      const data = (read?.ok ? read.data : {}) as { published?: boolean; date?: string };
      return data.published !== false && String(data.date ?? "") <= today;
    });
}

/** Words of made-up letters, the same on every run: text that gzip cannot shrink much. */
function madeUpWords(count: number): string {
  // mulberry32: 32-bit integer steps, exact in a JavaScript number.
  let seed = 52;
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  return Array.from({ length: count }, () =>
    Array.from({ length: 2 + Math.floor(random() * 8) }, () =>
      String.fromCharCode(97 + Math.floor(random() * 26)),
    ).join(""),
  ).join(" ");
}

test("passes on the shipped content, having audited a page of each kind", async () => {
  test.setTimeout(CHECK_MS);
  const run = await checkContent();
  expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
  expect(run.stdout).toMatch(/^check:content: no faults; \d+ content files, \d+ addresses served/m);
  for (const kind of [
    "home /",
    "case study /case-studies/",
    "article /insights/",
    "not found /no-such-page",
  ]) {
    expect(run.stdout).toContain(kind);
  }
});

test("stops before building on front matter that is not YAML and a link to no page, one line for each naming its file", async () => {
  test.setTimeout(CHECK_MS);
  const [study = ""] = servedEntries("case-studies");
  const [article = ""] = servedEntries("insights");
  const studyFile = join(clone, "content", "case-studies", study);
  writeFileSync(studyFile, readFileSync(studyFile, "utf8").replace(/^---\n/, "---js\n"));
  const articleFile = join(clone, "content", "insights", article);
  appendFileSync(articleFile, "\nRead [the study](/case-studies/no-such-study).\n");
  const lines = readFileSync(articleFile, "utf8").split("\n").length;

  const run = await checkContent();
  expect(run.code).toBe(1);
  const faults = run.stderr.split("\n").filter((line) => line.startsWith("content/"));
  expect(faults).toHaveLength(2);
  expect(faults).toEqual(
    expect.arrayContaining([
      expect.stringMatching(
        new RegExp(`^content/case-studies/${study}:1: \\(file\\): front matter is YAML only`),
      ),
      `content/insights/${article}:${lines - 1}: body: links to /case-studies/no-such-study, a page that does not exist`,
    ]),
  );
  expect(run.stderr).toContain("check:content: 2 faults in content/; nothing built or served");
  expect(existsSync(join(clone, "build"))).toBe(false);
});

test("fails on what only the built site shows: a missing anchor, an article over its HTML budget, a link without a name", async () => {
  test.setTimeout(CHECK_MS);
  const [article = ""] = servedEntries("insights");
  const slug = article.replace(/\.md$/, "");
  // Made the largest article by far, so it is the one axe audits.
  appendFileSync(
    join(clone, "content", "insights", article),
    `\nSee [our services](/#no-such-section) and [](/case-studies).\n\n${madeUpWords(24_000)}\n`,
  );

  const run = await checkContent();
  expect(run.code, run.stdout).toBe(1);
  const where = `/insights/${slug} (content/insights/${article}): `;
  const faults = run.stderr.split("\n").filter((line) => line.startsWith("/"));
  expect(faults).toEqual([
    `${where}the link "our services" to /#no-such-section: / has no element with id "no-such-section"`,
    expect.stringMatching(
      new RegExp(`^${escapeRegExp(where)}its HTML is over its budget: \\d+\\.\\d KB / 30\\.0 KB`),
    ),
    expect.stringMatching(
      new RegExp(`^${escapeRegExp(where)}axe with JavaScript: link-name \\(serious\\): `),
    ),
  ]);
  expect(run.stderr).toMatch(/^check:content: 3 faults; /m);
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}
