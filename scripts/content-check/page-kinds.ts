/**
 * The kinds of page the site has, each made by one route and one component: `npm run
 * check:content` audits one page of each kind in the browser, the largest.
 */
import type { ServedResource } from "./crawl";

const KINDS: { kind: string; path: RegExp }[] = [
  { kind: "home", path: /^\/$/ },
  { kind: "case studies list", path: /^\/case-studies$/ },
  { kind: "case study", path: /^\/case-studies\/[^/]+$/ },
  { kind: "insights list", path: /^\/insights(\/page\/\d+)?$/ },
  { kind: "article", path: /^\/insights\/[^/]+$/ },
  { kind: "policy", path: /^\/(privacy-policy|terms-conditions|cookie-policy)$/ },
];

/** A page's kind: the not-found page's whatever its address; a page of no known kind is one of its own. */
export function kindOfPage(path: string, status: number): string {
  if (status === 404) return "not found";
  return KINDS.find(({ path: pattern }) => pattern.test(path))?.kind ?? `page ${path}`;
}

export interface PageToAudit {
  kind: string;
  path: string;
  status: number;
  sendsBundle: boolean;
}

/** Of the served pages (HTML answered 200, and the not-found page), the largest of each kind, in the order of `KINDS`. */
export function onePagePerKind(served: Iterable<ServedResource>, notFoundPath: string): PageToAudit[] {
  const largest = new Map<string, ServedResource>();
  for (const resource of served) {
    const isPage = resource.status === 200 || resource.path === notFoundPath;
    if (resource.type !== "text/html" || !isPage) continue;
    const kind = kindOfPage(resource.path, resource.status);
    const current = largest.get(kind);
    if (!current || resource.gzip > current.gzip) largest.set(kind, resource);
  }
  const order = (kind: string) => {
    const index = KINDS.findIndex((known) => known.kind === kind);
    return index === -1 ? KINDS.length : index;
  };
  return [...largest]
    .sort(([a], [b]) => order(a) - order(b) || a.localeCompare(b))
    .map(([kind, resource]) => ({
      kind,
      path: resource.path,
      status: resource.status,
      sendsBundle: resource.sendsBundle,
    }));
}
