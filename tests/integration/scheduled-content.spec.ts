import { execFileSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
// No browser here: the pages are the server's HTML, read as a crawler or a feed reader reads them.
import { expect } from "@playwright/test";
import { processTest as test } from "../support/fixtures";
import { type RunningServer, startServer } from "../support/server-process";

// An article and a case study dated after everything else are added to a copy of this checkout,
// which `npm run build` builds first for the day before theirs (PUBLISH_DATE), then for their day,
// as the daily build does (.github/workflows/publish-due.yml); the real built server serves each.
// The fixture's day is far ahead, so no entry of the shipped content is held back beside it.

const project = process.cwd();
const DAY_BEFORE = "2099-03-14";
const THEIR_DAY = "2099-03-15";
const article = { slug: "scheduled-fixture-article", title: "An article that waits for its day" };
const study = { slug: "scheduled-fixture-study", title: "A case study that waits for its day" };

let copy: string;
let server: RunningServer | undefined;

/** The checkout's files as they are in the working tree (untracked ones too), its node_modules linked. */
function copyCheckout(): string {
  const dir = mkdtempSync(join(tmpdir(), "scheduled-content-"));
  const listed = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: project,
    encoding: "utf8",
  });
  for (const file of listed.split("\0")) {
    if (file === "" || !existsSync(join(project, file)) || lstatSync(join(project, file)).isDirectory())
      continue;
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    copyFileSync(join(project, file), join(dir, file));
  }
  symlinkSync(join(project, "node_modules"), join(dir, "node_modules"));
  return dir;
}

function writeFixtureEntries(dir: string): void {
  writeFileSync(
    join(dir, "content", "images", "scheduled-fixture-cover.svg"),
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1200 630" width="1200" height="630"><rect width="1200" height="630" fill="#5b3fd1"/></svg>\n',
  );
  writeFileSync(
    join(dir, "content", "insights", `${article.slug}.md`),
    `---\ntitle: ${article.title}\ndescription: A fixture article, dated after everything else.\nauthor: Meera Iyer\ndate: ${THEIR_DAY}\n---\nIts words, published on its day.\n`,
  );
  writeFileSync(
    join(dir, "content", "case-studies", `${study.slug}.md`),
    [
      "---",
      `title: ${study.title}`,
      "client: Fixture Client",
      "sector: Testing",
      "summary: A fixture case study, dated after everything else.",
      `date: ${THEIR_DAY}`,
      "stack: [TypeScript]",
      "results:",
      '  - value: "1"',
      "    label: day to wait",
      "cover:",
      "  src: images/scheduled-fixture-cover.svg",
      "  alt: A plain purple rectangle",
      "---",
      "Its story, published on its day.",
      "",
    ].join("\n"),
  );
}

/** Builds the copy as `npm run build` does, for `day`, and serves it. */
async function buildAndServe(day: string, node: string): Promise<RunningServer> {
  await server?.stop();
  server = undefined;
  execFileSync("npm", ["run", "-s", "build"], {
    cwd: copy,
    env: { ...process.env, PUBLISH_DATE: day },
    stdio: "pipe",
  });
  server = await startServer({ cwd: copy, node });
  return server;
}

async function get(url: string): Promise<{ status: number; text: string }> {
  const response = await fetch(url, { redirect: "manual" });
  return { status: response.status, text: await response.text() };
}

/** Every page of /insights, the first to the last (the page past it answers 404). */
async function insightsListPages(url: string): Promise<string[]> {
  const pages: string[] = [];
  for (let number = 1; ; number += 1) {
    const page = await get(`${url}${number === 1 ? "/insights" : `/insights/page/${number}`}`);
    if (page.status === 404 && number > 1) return pages;
    expect(page.status).toBe(200);
    pages.push(page.text);
  }
}

/** Where a visitor, a crawler or a feed reader could find each entry on the running site. */
async function whereListed(url: string) {
  const feed = (await get(`${url}/insights/feed.xml`)).text;
  const sitemap = (await get(`${url}/sitemap.xml`)).text;
  const home = (await get(`${url}/`)).text;
  const insights = (await insightsListPages(url)).join("\n");
  const caseStudies = (await get(`${url}/case-studies`)).text;
  const articlePath = `/insights/${article.slug}`;
  const studyPath = `/case-studies/${study.slug}`;
  return {
    articlePage: (await get(`${url}${articlePath}`)).status,
    studyPage: (await get(`${url}${studyPath}`)).status,
    articleInList: insights.includes(`href="${articlePath}"`),
    studyInList: caseStudies.includes(`href="${studyPath}"`),
    onHomePage: home.includes(articlePath) || home.includes(studyPath),
    articleInFeed: feed.includes(`${articlePath}</id>`),
    articleInSitemap: sitemap.includes(`${articlePath}</loc>`),
    studyInSitemap: sitemap.includes(`${studyPath}</loc>`),
  };
}

test.beforeAll(() => {
  copy = copyCheckout();
  writeFixtureEntries(copy);
});

test.afterAll(async () => {
  await server?.stop();
  rmSync(copy, { recursive: true, force: true });
});

test("an article and a case study dated after the build's day are nowhere on the site; the build on their day publishes them everywhere", async ({
  serverNode,
}) => {
  // Two builds of the whole site on a busy two-core machine.
  test.setTimeout(300_000);

  const before = await buildAndServe(DAY_BEFORE, serverNode);
  expect(await whereListed(before.url)).toEqual({
    articlePage: 404,
    studyPage: 404,
    articleInList: false,
    studyInList: false,
    onHomePage: false,
    articleInFeed: false,
    articleInSitemap: false,
    studyInSitemap: false,
  });

  const onTheDay = await buildAndServe(THEIR_DAY, serverNode);
  expect(await whereListed(onTheDay.url)).toEqual({
    articlePage: 200,
    studyPage: 200,
    articleInList: true,
    studyInList: true,
    onHomePage: false,
    articleInFeed: true,
    articleInSitemap: true,
    studyInSitemap: true,
  });
  expect((await get(`${onTheDay.url}/insights/${article.slug}`)).text).toContain(article.title);
  expect((await get(`${onTheDay.url}/case-studies/${study.slug}`)).text).toContain(study.title);
});
