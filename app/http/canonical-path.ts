/**
 * The one spelling of a page's path: what a request spelt otherwise (case, a trailing slash,
 * `%2D`, `//`, dot segments) is redirected to, and the only path a shared document is kept under.
 *
 * Why: docs/decisions/043-one-spelling-per-page.md.
 */

/** The characters RFC 3986 lets a path hold as they are (`%` only in an escape). */
const PATH_CHARACTERS = /^[A-Za-z0-9\-._~!$&'()*+,;=:@/%]*$/;
const ESCAPE = /%([0-9A-Fa-f]{2})/g;
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/**
 * The path in RFC 3986's normal form (§6.2.2) and without empty segments: percent escapes of
 * unreserved characters decoded and every other escape in upper case, dot segments resolved,
 * `//` made `/`, and no trailing slash except on `/`. Null for a path no router reads as
 * written (a character outside the path's set, a `%` that starts no escape): such a path is
 * left as it is.
 */
export function normalPath(pathname: string): string | null {
  if (!pathname.startsWith("/") || !PATH_CHARACTERS.test(pathname)) return null;
  if (/%(?![0-9A-Fa-f]{2})/.test(pathname)) return null;
  const decoded = pathname.replace(ESCAPE, (percentEscape, hex: string) => {
    const character = String.fromCharCode(Number.parseInt(hex, 16));
    return UNRESERVED.test(character) ? character : percentEscape.toUpperCase();
  });
  const segments: string[] = [];
  for (const segment of decoded.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") segments.pop();
    else segments.push(segment);
  }
  return `/${segments.join("/")}`;
}

/** ASCII letters in lower case, the hex digits of escapes kept in upper case. */
function lowerCase(path: string): string {
  return path.replace(/%[0-9A-F]{2}|[A-Z]+/g, (part) => (part.startsWith("%") ? part : part.toLowerCase()));
}

/**
 * The canonical path of a page, or null when `pathname` names no page in any spelling (a file,
 * `/healthz`, `/admin/`, an unknown path: left as it is). Its normal form (`normalPath`) in
 * lower case, as every page path of the site is (the routes' files, and slugs, which content
 * validation holds to lower-case kebab-case: app/content/collections/fields.ts); `isPage` says
 * whether a path names a page route. Data requests (`….data`) are the app's: never respelt.
 */
export function canonicalPath(pathname: string, isPage: (path: string) => boolean): string | null {
  if (pathname.endsWith(".data")) return null;
  const normal = normalPath(pathname);
  if (normal === null) return null;
  const lower = lowerCase(normal);
  return isPage(lower) ? lower : null;
}

/**
 * Whether a page's path is spelt as canonicalPath spells it: what the server redirects to is the
 * only path the app keeps a shared document under.
 */
export function isCanonicalSpelling(path: string): boolean {
  return normalPath(path) === path && lowerCase(path) === path;
}

/** A route as the Remix build lists it: its own path segment(s) and its parent's id. */
export interface RouteEntry {
  path?: string;
  parentId?: string;
}

/**
 * Whether a path names one of `routes` (the Remix build's `routes`): its static segments as
 * written, a `:param` any one segment. The catch-all (`*`, the not-found page) names nothing:
 * every path would be a page.
 */
export function pageRouteMatcher(routes: Record<string, RouteEntry | undefined>): (path: string) => boolean {
  const fullPath = (id: string | undefined): string => {
    const route = id === undefined ? undefined : routes[id];
    if (!route) return "";
    const parent = fullPath(route.parentId);
    return route.path ? `${parent}/${route.path}` : parent;
  };
  const patterns = Object.keys(routes)
    .map((id) => fullPath(id).split("/").filter(Boolean))
    .filter((segments) => !segments.some((segment) => segment.includes("*") || segment.endsWith("?")));
  return (path) => {
    const segments = path.split("/").filter(Boolean);
    return patterns.some(
      (pattern) =>
        pattern.length === segments.length &&
        pattern.every((part, index) => part.startsWith(":") || part === segments[index]),
    );
  };
}
