/** The site's pages as Remix reads them from app/routes, for the bench to audit every one. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { readConfig } from "@remix-run/dev/dist/config.js";

/** A URL only the catch-all route answers: the not-found page. */
export const notFoundPath = "/no-such-page";

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
      const path = full === "" ? "/" : full === "/*" ? notFoundPath : full;
      if (/[:*]/.test(path)) {
        throw new Error(
          `${route.file}: a route with a parameter (${path}) needs an example URL in bench/lib/site-routes.ts`,
        );
      }
      const source = readFileSync(join(config.appDirectory, route.file), "utf8");
      return { file: route.file, path, page: /^export default /m.test(source) };
    });
  const rank = (route: SiteRoute) =>
    route.path === "/" ? 0 : !route.page ? 3 : route.path === notFoundPath ? 2 : 1;
  return found.sort((a, b) => rank(a) - rank(b) || a.path.localeCompare(b.path));
}
