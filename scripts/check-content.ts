/**
 * `npm run check:content`: everything a change to content/ can break, checked in minutes rather
 * than by the whole suite: the content files' rules, the build, then every page of the built
 * site served once and checked (status, byte budgets, links, anchors, images, the feed, the
 * sitemap), axe on one page of each kind in the tests' Chromium, and the content tests. Prints
 * one line per fault naming the file or page, and exits 1 when there is one.
 */
import { spawnSync } from "node:child_process";
import { join, resolve } from "node:path";
import { type Browser, chromium } from "@playwright/test";
import { documentSendsBundle } from "../tests/support/bundle-routes";
import { freePort, type RunningServer, startServer } from "../tests/support/server-process";
import { CONTENT_TESTS } from "./content-check/content-tests";
import { serveEverything } from "./content-check/crawl";
import { readMarkup } from "./content-check/document-parts";
import { type Fault, faultLine } from "./content-check/faults";
import { auditPage } from "./content-check/page-audits";
import { onePagePerKind } from "./content-check/page-kinds";
import { type Expected, servedFaults } from "./content-check/served-checks";
import { runBuild } from "./lib/build.js";
import { CHROMIUM_FLAGS, findChromium } from "./lib/chromium";
import { formatFault, loadContent } from "./lib/content/load";

const USAGE = `usage: npm run check:content

Checks what a change to content/ can break, in this order, and prints one line per fault
(the file or page, then what is wrong); exits 1 when there is one:
  1. every content file against the content rules (npm run build:content's);
  2. the build (npm run build's steps, scripts/lib/build.js);
  3. the content tests (scripts/content-check/content-tests.ts);
  4. every page, feed, sitemap, robots.txt, manifest, stylesheet, script and image of the built
     site, served once on a free port of 127.0.0.1: its status (the not-found page 404, the
     others 200), the byte budgets, each link and image of the site's own, each fragment's
     element, and well-formed XML and JSON;
  5. axe on the largest page of each kind, in the tests' Chromium, with JavaScript, and
     without it too where the page sends the app's bundle; the home page's byte budgets there.`;

if (process.argv.includes("--help")) {
  console.log(USAGE);
  process.exit(0);
}

/** An address no page has: the not-found page. */
const NOT_FOUND_PATH = "/no-such-page";
/** The addresses the site always answers; every other page is found from them. */
const STARTS: Expected[] = [
  { path: "/", status: 200 },
  { path: "/robots.txt", status: 200 },
  { path: "/sitemap.xml", status: 200 },
  { path: "/insights/feed.xml", status: 200 },
  { path: "/manifest.webmanifest", status: 200 },
  { path: NOT_FOUND_PATH, status: 404 },
];

const root = resolve(import.meta.dirname, "..");
const started = performance.now();
const timings: string[] = [];
const faults: Fault[] = [];

/** Runs one step, and notes how long it took. */
async function step<T>(name: string, run: () => Promise<T> | T): Promise<T> {
  const stepStarted = performance.now();
  console.log(`check:content: ${name}…`);
  const result = await run();
  timings.push(`${name} ${seconds(performance.now() - stepStarted)}`);
  return result;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Prints the faults and the summary line, and ends the process: 1 with faults, 0 without. */
function finish(summary: string): never {
  for (const fault of faults) console.error(faultLine(root, fault));
  const total = `${seconds(performance.now() - started)} (${timings.join(", ")})`;
  if (faults.length > 0) {
    console.error(
      `check:content: ${faults.length} fault${faults.length === 1 ? "" : "s"}${summary ? `; ${summary}` : ""}; ${total}`,
    );
    process.exit(1);
  }
  console.log(`check:content: no faults; ${summary}; ${total}`);
  process.exit(0);
}

const { content, faults: contentFaults } = await step("validating content/", () => loadContent(root));
const files = Object.values(content).reduce((sum, entries) => sum + entries.length, 0);
if (contentFaults.length > 0) {
  // The site cannot be built from these files: each line is the content build's own.
  for (const fault of contentFaults) console.error(formatFault(fault));
  console.error(
    `check:content: ${contentFaults.length} fault${contentFaults.length === 1 ? "" : "s"} in content/; nothing built or served until ${contentFaults.length === 1 ? "it is" : "they are"} fixed`,
  );
  process.exit(1);
}

await step("building the site", () => runBuild());

await step("running the content tests", () => {
  for (const test of CONTENT_TESTS) {
    const [program = "", ...args] = test.command;
    // vite-node, which runs this script, sets NODE_ENV=development; vitest, started by npm, sets test.
    const env = {
      ...process.env,
      NODE_ENV: "test" as const,
      PATH: `${join(root, "node_modules", ".bin")}:${process.env.PATH ?? ""}`,
    };
    const run = spawnSync(program, args, { cwd: root, env, encoding: "utf8" });
    if (run.status !== 0) {
      process.stderr.write(`${run.stdout ?? ""}${run.stderr ?? ""}`);
      faults.push({
        where: test.command.join(" "),
        message: `the content test "${test.name}" failed (${run.error?.message ?? `exit ${run.status ?? run.signal}`}); its output is above`,
      });
    }
  }
});

let server: RunningServer | undefined;
let browser: Browser | undefined;
const stopAll = async () => {
  await browser?.close();
  await server?.stop();
};
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void stopAll().finally(() => process.exit(130));
  });
}

let summary = `${files} content files`;
try {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  // The site's own origin as SITE_URL: canonical links, the sitemap and the feed name this server.
  server = await step("starting the built server", () =>
    startServer({ cwd: root, port, env: { SITE_URL: origin }, quiet: true }),
  );
  const chromiumFound = await findChromium();
  const launched = await chromium.launch({
    executablePath: chromiumFound.executablePath,
    args: CHROMIUM_FLAGS,
  });
  browser = launched;
  const parser = await launched.newPage();
  const served = await step("serving every page once", () =>
    serveEverything(
      origin,
      STARTS.map(({ path }) => path),
      (text, url, format) => readMarkup(parser, text, url, format),
      documentSendsBundle,
    ),
  );
  faults.push(...servedFaults(served, origin, STARTS));
  const audits = onePagePerKind(served.values(), NOT_FOUND_PATH);
  await step("auditing one page of each kind", async () => {
    for (const audited of audits) {
      faults.push(...(await auditPage(launched, origin, audited, true)));
      if (audited.sendsBundle) faults.push(...(await auditPage(launched, origin, audited, false)));
    }
  });
  const pages = [...served.values()].filter((resource) => resource.type === "text/html").length;
  const references = [...served.values()].reduce(
    (sum, resource) => sum + (resource.parts?.references.length ?? 0),
    0,
  );
  summary =
    `${files} content files, ${served.size} addresses served (${pages} pages), ${references} links and images followed, ` +
    `axe on ${audits.map((audited) => `${audited.kind} ${audited.path}`).join(", ")}; browser: ${chromiumFound.source}`;
} catch (error) {
  // The server would not start, or the browser: no page could be checked.
  faults.push({ where: "check:content", message: `stopped: ${(error as Error).message.split("\n")[0]}` });
} finally {
  await stopAll();
}
finish(summary);
