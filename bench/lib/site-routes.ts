/** The site's pages as Remix reads them from app/routes, for the bench to audit every one. */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { readConfig } from "@remix-run/dev/dist/config.js";
import { INSIGHTS_PER_PAGE } from "../../app/content/insights-per-page";
import { splitFrontMatter } from "../../scripts/lib/content/front-matter";
import { readYamlData } from "../../scripts/lib/content/yaml-data";

/** A URL only the catch-all route answers: the not-found page. */
export const notFoundPath = "/no-such-page";

/** A content file's front matter and body, read as the content build reads them (it has validated them). */
function markdownFile(raw: string): { data: Record<string, unknown>; body: string } {
  const split = splitFrontMatter(raw);
  const read = split.ok ? readYamlData(split.yaml) : undefined;
  const data = read?.ok && typeof read.data === "object" && read.data !== null ? read.data : {};
  return { data: data as Record<string, unknown>, body: split.ok ? split.body : raw };
}

/**
 * The published pages of a Markdown collection under content/ (slug: the file's name), longest
 * body first: the page budgets and the benchmark hold to the largest. Read from the files, not the
 * built modules, which import images only the app's build can load.
 */
export function publishedPages(collection: string): { slug: string; length: number }[] {
  const folder = join(process.cwd(), "content", collection);
  return readdirSync(folder)
    .filter((name) => name.endsWith(".md"))
    .map((name) => ({ name, file: markdownFile(readFileSync(join(folder, name), "utf8")) }))
    .filter(({ file }) => file.data.published !== false)
    .map(({ name, file }) => ({ slug: name.slice(0, -".md".length), length: file.body.length }))
    .sort((a, b) => b.length - a.length);
}

/**
 * A URL for each route with a parameter; undefined when no such page exists today (a second
 * page of insights needs more than one page of articles).
 */
const EXAMPLES: Record<string, () => string | undefined> = {
  "/case-studies/:slug": () => {
    const [longest] = publishedPages("case-studies");
    return longest && `/case-studies/${longest.slug}`;
  },
  "/insights/:slug": () => {
    const [longest] = publishedPages("insights");
    return longest && `/insights/${longest.slug}`;
  },
  "/insights/page/:page": () =>
    publishedPages("insights").length > INSIGHTS_PER_PAGE ? "/insights/page/2" : undefined,
};

export interface SiteRoute {
  /** The route module, from app/. */
  file: string;
  /** A URL that opens it. */
  path: string;
  /** A page (its module renders: a default export) or a resource route (a manifest, an endpoint). */
  page: boolean;
}

/**
 * Every route the app has, as Remix itself reads app/routes, each with a URL that opens it: a
 * route added later is measured without anyone remembering to list it. Pages come first (home
 * leading, the not-found page last), then resource routes.
 */
export async function siteRoutes(root: string): Promise<SiteRoute[]> {
  const config = await readConfig(root);
  const routes = Object.values(config.routes);
  const pathOf = (id: string | undefined): string => {
    const route = id ? config.routes[id] : undefined;
    if (!route) return "";
    const parent = pathOf(route.parentId);
    return route.path ? `${parent}/${route.path}` : parent;
  };
  const found = routes
    .filter((route) => route.id !== "root")
    .map((route) => {
      const full = pathOf(route.id);
      let path: string | undefined = full === "" ? "/" : full === "/*" ? notFoundPath : full;
      if (/[:*]/.test(path)) {
        const example = EXAMPLES[path];
        if (!example) {
          throw new Error(
            `${route.file}: a route with a parameter (${path}) needs an example URL in bench/lib/site-routes.ts`,
          );
        }
        path = example();
      }
      const source = readFileSync(join(config.appDirectory, route.file), "utf8");
      return path === undefined
        ? undefined
        : { file: route.file, path, page: /^export default /m.test(source) };
    })
    .filter((route) => route !== undefined);
  const rank = (route: SiteRoute) =>
    route.path === "/" ? 0 : !route.page ? 3 : route.path === notFoundPath ? 2 : 1;
  return found.sort((a, b) => rank(a) - rank(b) || a.path.localeCompare(b.path));
}
