/**
 * `npm run bench:content`: how the build and the server bear a large content/. On a copy of the
 * project in the temp folder (the checkout is never touched), it writes 500 articles and 100
 * case studies with three photos each (bench/lib/content-corpus.ts), runs the copy's own build
 * one step at a time (its scripts/lib/build.js), then starts the built server and fetches every
 * page of the sitemap and every page of /insights. It prints each build step's time, the Open Graph and
 * responsive images made and how long they took, the largest page's HTML (raw and gzip -9) and
 * the server's memory; beside them, the same figures for the repository's own content, built
 * the same way on a second copy.
 */
import { execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import { mb, rssBytes } from "../scripts/lib/server.js";
import { printTable } from "../scripts/lib/table.js";
import { freePort, type RunningServer, startServer } from "../tests/support/server-process";
import { type Corpus, writeCorpus } from "./lib/content-corpus";
import { copyProject } from "./lib/project-copy";

const USAGE = `usage: npm run bench:content [-- options]

Builds a copy of the project (in the temp folder) with generated content, serves it, and prints
each build step's time, the Open Graph and responsive images made, the largest page's HTML (raw
and gzip -9) and the server's RSS, beside the same for the repository's own content.

  --articles N          articles to generate (BENCH_ARTICLES, 500), one in ten in Hindi
  --case-studies N      case studies to generate (BENCH_CASE_STUDIES, 100)
  --images N            photos per case study, 2400 × 1600 JPEGs, the cover first (3; 1 to 9)
  --skip-baseline       leave out the build of the repository's own content
  --ref REV             copy the files of a commit (git archive REV) instead of the working tree's
  --port N              the server's port (BENCH_PORT; a free one by default)`;

const { values: flags } = parseArgs({
  args: process.argv.slice(2),
  options: {
    help: { type: "boolean" },
    articles: { type: "string" },
    "case-studies": { type: "string" },
    images: { type: "string" },
    "skip-baseline": { type: "boolean" },
    ref: { type: "string" },
    port: { type: "string" },
  },
});
if (flags.help) {
  console.log(USAGE);
  process.exit(0);
}

function count(name: string, value: string | undefined, fallback: number, min: number, max: number): number {
  const number = Number(value ?? fallback);
  if (!Number.isInteger(number) || number < min || number > max) {
    console.error(`bench:content: ${name} must be a whole number from ${min} to ${max}, not "${value}"`);
    process.exit(2);
  }
  return number;
}
const options = {
  articles: count("--articles", flags.articles ?? process.env.BENCH_ARTICLES, 500, 0, 100_000),
  caseStudies: count(
    "--case-studies",
    flags["case-studies"] ?? process.env.BENCH_CASE_STUDIES,
    100,
    0,
    10_000,
  ),
  // A case study's cover is required, and it may name eight more images.
  imagesPerCaseStudy: count("--images", flags.images, 3, 1, 9),
};
const port = flags.port ?? process.env.BENCH_PORT;

interface Run {
  label: string;
  content: string;
  steps: { name: string; seconds: number }[];
  og: { images: number; seconds: number };
  responsive: { images: number; files: number; seconds: number } | null;
  pages: number;
  crawlSeconds: number;
  largest: Record<"page" | "article" | "case study", { path: string; raw: number; gzip: number } | undefined>;
  rss: { started: number; afterPages: number; peak: number };
}

const copies: string[] = [];
let server: RunningServer | undefined;
const cleanUp = async () => {
  await server?.stop();
  for (const dir of copies) rmSync(dir, { recursive: true, force: true });
};
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void cleanUp().finally(() => process.exit(130));
  });
}

const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");
const startedAt = new Date();
const loadBefore = load();
const runs: Run[] = [];
try {
  if (!flags["skip-baseline"]) runs.push(await measure("repository content", null));
  runs.push(await measure("generated content", options));
} finally {
  await cleanUp();
}
print();

/** One copy of the project, built and served: every figure of one column. */
async function measure(label: string, corpus: typeof options | null): Promise<Run> {
  const dir = mkdtempSync(join(tmpdir(), "bench-content-"));
  copies.push(dir);
  progress(`${label}: copying the project into ${dir}`);
  copyProject(dir, flags.ref);
  let written: Corpus | null = null;
  if (corpus) {
    progress(
      `${label}: writing ${corpus.articles} articles and ${corpus.caseStudies} case studies with ${corpus.imagesPerCaseStudy} photos each`,
    );
    written = await writeCorpus(dir, corpus);
  }
  const steps: Run["steps"] = [];
  let output = "";
  for (const buildStep of await buildSteps(dir)) {
    progress(`${label}: ${buildStep.name}`);
    const step = await runStep(dir, buildStep);
    steps.push({ name: buildStep.name, seconds: step.seconds });
    output += step.output;
  }
  const media = /media: (\d+) Open Graph images \(\d+ KB\) in (\d+) ms/.exec(output);
  if (!media)
    throw new Error("the build printed no 'media: N Open Graph images (N KB) in N ms' line to read");
  const ogFiles = filesUnder(join(dir, "public", "og")).filter((file) => file.endsWith(".png")).length;
  if (ogFiles !== Number(media[1]))
    throw new Error(`the media step said ${media[1]} Open Graph images, public/og/ holds ${ogFiles}`);
  // The content build reports the responsive images it made (scripts/lib/content/images.ts).
  const made = /(\d+) raster images made responsive \((\d+) files in public\/media\/\) in (\d+) ms/.exec(
    output,
  );
  const mediaFiles = filesUnder(join(dir, "public", "media")).length;
  if (!made && mediaFiles > 0)
    throw new Error("public/media/ has files, but the build did not say how long they took");
  const contentFiles = (folder: string) =>
    readdirSync(join(dir, "content", folder)).filter((name) => name.endsWith(".md"));
  const articles = contentFiles("insights");
  const hindi = articles.filter((name) =>
    /^lang: hi$/m.test(readFileSync(join(dir, "content", "insights", name), "utf8")),
  );
  const photos = written ? `, ${written.images} photos (${(written.imageBytes / 1e6).toFixed(0)} MB)` : "";
  const studies = contentFiles("case-studies").length;
  const served = await serve(dir, label);
  // Each copy goes once measured (hundreds of MB of photos and images); cleanUp takes any left.
  rmSync(dir, { recursive: true, force: true });
  return {
    label,
    content: `${articles.length} articles (${hindi.length} in Hindi), ${studies} case studies${photos}`,
    steps,
    og: { images: ogFiles, seconds: Number(media[2]) / 1000 },
    responsive: made ? { images: Number(made[1]), files: mediaFiles, seconds: Number(made[3]) / 1000 } : null,
    ...served,
  };
}

function progress(line: string) {
  console.error(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
}

interface BuildStep {
  name: string;
  /** A program and its arguments, run in the copy. */
  command: string[];
}

/**
 * The copy's own build, one step at a time: the list its scripts/lib/build.js holds, or in a
 * commit from before that list (`--ref`) its `npm run build` split at `&&`.
 */
async function buildSteps(dir: string): Promise<BuildStep[]> {
  const list = join(dir, "scripts", "lib", "build.js");
  if (existsSync(list)) {
    // Read by Node in the copy: vite-node loads no module from outside this checkout.
    const script = `import(${JSON.stringify(pathToFileURL(list).href)}).then((m) => console.log(JSON.stringify(m.buildSteps)))`;
    const steps = JSON.parse(
      execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: dir, encoding: "utf8" }),
    ) as { name: string; args: string[] }[];
    return steps.map(({ name, args }) => ({ name, command: [process.execPath, ...args] }));
  }
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
    scripts: Record<string, string>;
  };
  const build = pkg.scripts.build;
  if (!build) throw new Error("package.json has no build script");
  return build.split("&&").map((step) => ({ name: step.trim(), command: ["sh", "-c", step.trim()] }));
}

/** Runs one build step as npm would (node_modules/.bin on PATH), and times it. */
async function runStep(
  dir: string,
  { name, command }: BuildStep,
): Promise<{ seconds: number; output: string }> {
  // A production build whoever calls, as `npm run build` builds (scripts/lib/build.js): vite-node
  // runs this file with NODE_ENV=development.
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production" };
  const started = performance.now();
  const [file, ...args] = command as [string, ...string[]];
  const child = spawn(file, args, {
    cwd: dir,
    env: { ...env, PATH: `${join(dir, "node_modules", ".bin")}:${env.PATH ?? ""}` },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => {
    output += chunk;
  });
  child.stderr.on("data", (chunk: Buffer) => {
    output += chunk;
  });
  const [code] = (await once(child, "exit")) as [number | null];
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0)
    throw new Error(`${name} failed (exit ${code}):\n${output.split("\n").slice(-40).join("\n")}`);
  return { seconds, output };
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/**
 * Starts the copy's built server as production does, reads its RSS once it answers, fetches
 * every page of the sitemap and each page of /insights, and reads its RSS again.
 */
async function serve(dir: string, label: string) {
  const chosen = port ? Number(port) : await freePort();
  progress(`${label}: starting the built server on port ${chosen}`);
  server = await startServer({
    cwd: dir,
    port: chosen,
    quiet: true,
    env: { SITE_URL: `http://127.0.0.1:${chosen}` },
  });
  const pid = server.pid ?? 0;
  const started = rssBytes(pid) ?? 0;
  const sitemap = await (await fetch(`${server.url}/sitemap.xml`)).text();
  const paths = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map(
    (match) => new URL(match[1] ?? "").pathname,
  );
  progress(`${label}: fetching ${paths.length} pages of the sitemap and the pages of /insights`);
  const crawlStarted = performance.now();
  const pages: { path: string; raw: number; gzip: number }[] = [];
  const url = server.url;
  const fetchPage = async (path: string) => {
    const response = await fetch(`${url}${path}`, { redirect: "manual" });
    const html = Buffer.from(await response.arrayBuffer());
    return {
      status: response.status,
      page: { path, raw: html.length, gzip: gzipSync(html, { level: 9 }).length },
    };
  };
  let next = 0;
  const worker = async () => {
    while (next < paths.length) {
      const path = paths[next++] ?? "";
      const { status, page } = await fetchPage(path);
      if (status !== 200) throw new Error(`${path} answered ${status}, not 200`);
      pages.push(page);
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  // /insights/page/2 onwards, until the page past the last answers 404.
  for (let number = 2; ; number += 1) {
    const { status, page } = await fetchPage(`/insights/page/${number}`);
    if (status === 404) break;
    if (status !== 200) throw new Error(`/insights/page/${number} answered ${status}`);
    pages.push(page);
  }
  const crawlSeconds = (performance.now() - crawlStarted) / 1000;
  const rss = { started, afterPages: rssBytes(pid) ?? 0, peak: rssBytes(pid, "VmHWM") ?? 0 };
  await server.stop();
  server = undefined;
  const largestOf = (kind: RegExp) =>
    pages.filter((page) => kind.test(page.path)).sort((a, b) => b.raw - a.raw)[0];
  return {
    pages: pages.length,
    crawlSeconds,
    largest: {
      page: largestOf(/^\//),
      article: largestOf(/^\/insights\/(?!page\/)[^/]+$/),
      "case study": largestOf(/^\/case-studies\/[^/]+$/),
    },
    rss,
  };
}

function print() {
  const seconds = (value: number) => `${value.toFixed(1)} s`;
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  const figures: [string, (run: Run) => string][] = [
    ["content", (run) => run.content],
    ...(runs[0]?.steps ?? []).map(
      ({ name }, index) =>
        [`build: ${name}`, (run: Run) => seconds(run.steps[index]?.seconds ?? Number.NaN)] as [
          string,
          (run: Run) => string,
        ],
    ),
    ["build: total", (run) => seconds(run.steps.reduce((sum, step) => sum + step.seconds, 0))],
    ["Open Graph images (in build-media)", (run) => `${run.og.images} PNGs in ${seconds(run.og.seconds)}`],
    [
      "responsive images (in build:content)",
      (run) =>
        run.responsive
          ? `${run.responsive.images} images, ${run.responsive.files} files in ${seconds(run.responsive.seconds)}`
          : "none: this build makes none",
    ],
    ["pages fetched", (run) => `${run.pages} in ${seconds(run.crawlSeconds)}`],
    ...(["page", "article", "case study"] as const).map(
      (kind) =>
        [
          `largest ${kind} HTML (raw, gzip -9)`,
          (run: Run) => {
            const page = run.largest[kind];
            return page ? `${kb(page.raw)}, ${kb(page.gzip)}: ${page.path}` : "none";
          },
        ] as [string, (run: Run) => string],
    ),
    ["server RSS once started", (run) => mb(run.rss.started)],
    ["server RSS after every page", (run) => mb(run.rss.afterPages)],
    ["server peak RSS", (run) => mb(run.rss.peak)],
  ];
  console.log(
    `\nnpm run bench:content, ${startedAt.toISOString()} to ${new Date().toISOString()}, Node ${process.version}, load average ${loadBefore} before, ${load()} after${flags.ref ? `, files of ${flags.ref}` : ""}\n`,
  );
  printTable(
    figures.map(([figure, of]) => ({
      figure,
      ...Object.fromEntries(runs.map((run) => [run.label, of(run)])),
    })),
  );
}
