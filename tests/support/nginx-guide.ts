import { readFileSync } from "node:fs";
import { join } from "node:path";

/** The guide that documents the nginx block, relative to the project's root. */
export const NGINX_GUIDE = "docs/deploying.md";

/** The text of the deployment guide, read from the working directory (the project's root). */
export function readNginxGuide(): string {
  return readFileSync(join(process.cwd(), NGINX_GUIDE), "utf8");
}

/**
 * The nginx `map` of the deployment guide's CDN section, as a function: the query that goes into
 * the cache key for a request target's query (`$args`). The guide's regular expression is used as
 * it is written (PCRE and JavaScript agree on it), so the guide is tested, not a copy of it.
 */
export function guideCacheArgs(): (args: string) => string {
  const block = /map \$args \$site_cache_args \{([\s\S]*?)\n\}/.exec(readNginxGuide())?.[1];
  const pattern = /^\s*"~([^"]+)"\s+"";$/m.exec(block ?? "")?.[1];
  if (!block?.includes("default $args;") || !pattern) {
    throw new Error(`${NGINX_GUIDE} has no nginx map $args $site_cache_args with a default and one regex`);
  }
  const regex = new RegExp(pattern);
  return (args) => (regex.test(args) ? "" : args);
}

/** The guide's `proxy_cache_key` (host and scheme left out): the path, `?`, the mapped query. */
export function guideCacheKey(): (target: string) => string {
  const cacheArgs = guideCacheArgs();
  return (target) => {
    const queryAt = target.indexOf("?");
    if (queryAt === -1) return `${target}?`;
    return `${target.slice(0, queryAt)}?${cacheArgs(target.slice(queryAt + 1))}`;
  };
}

/** The guide's nginx block: the first `nginx` code block of the deployment guide. */
export function guideNginxBlock(): string {
  return /```nginx\n([\s\S]*?)```/.exec(readNginxGuide())?.[1] ?? "";
}

/** The headers the guide's nginx block sets on requests to the app (`proxy_set_header`), by name. */
export function guideProxyHeaders(): Map<string, string> {
  return new Map(
    [...guideNginxBlock().matchAll(/^\s*proxy_set_header\s+(\S+)\s+("[^"]*"|\S+);/gm)].map(
      ([, name = "", value = ""]) => [name.toLowerCase(), value],
    ),
  );
}
