/** The site's pages as Remix reads them from app/routes, for the bench to audit every one. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { readConfig } from "@remix-run/dev/dist/config.js";
import { insightsPageCount, publishedCaseStudies, publishedInsights } from "../../app/content/pages.server";

/** A URL only the catch-all route answers: the not-found page. */
export const notFoundPath = "/no-such-page";

/** The longest published entry: the page budgets and the benchmark hold to the largest. */
function longest<Entry extends { slug: string; html: string }>(entries: Entry[]): Entry | undefined {
  return [...entries].sort((a, b) => b.html.length - a.html.length)[0];
}

/**
 * A URL for each route with a parameter, from the content the build made; undefined when no such
 * page exists today (a second page of insights needs more than one page of articles).
 */
const EXAMPLES: Record<string, () => string | undefined> = {
  "/case-studies/:slug": () => {
    const entry = longest(publishedCaseStudies());
    return entry && `/case-studies/${entry.slug}`;
  },
  "/insights/:slug": () => {
    const entry = longest(publishedInsights());
    return entry && `/insights/${entry.slug}`;
  },
  "/insights/page/:page": () => (insightsPageCount() > 1 ? "/insights/page/2" : undefined),
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
