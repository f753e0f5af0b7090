import { readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * The nginx `map` of the README's CDN guide, as a function: the query that goes into the cache
 * key for a request target's query (`$args`). The README's regular expression is used as it is
 * written (PCRE and JavaScript agree on it), so the guide is tested, not a copy of it.
 */
export function readmeCacheArgs(): (args: string) => string {
  const readme = readFileSync(join(process.cwd(), "README.md"), "utf8");
  const block = /map \$args \$site_cache_args \{([\s\S]*?)\n\}/.exec(readme)?.[1];
  const pattern = /^\s*"~([^"]+)"\s+"";$/m.exec(block ?? "")?.[1];
  if (!block?.includes("default $args;") || !pattern) {
    throw new Error("README.md has no nginx map $args $site_cache_args with a default and one regex");
  }
  const regex = new RegExp(pattern);
  return (args) => (regex.test(args) ? "" : args);
}

/** The README's `proxy_cache_key` (host and scheme left out): the path, `?`, the mapped query. */
export function readmeCacheKey(): (target: string) => string {
  const cacheArgs = readmeCacheArgs();
  return (target) => {
    const queryAt = target.indexOf("?");
    if (queryAt === -1) return `${target}?`;
    return `${target.slice(0, queryAt)}?${cacheArgs(target.slice(queryAt + 1))}`;
  };
}

/** The headers the README's nginx block sets on requests to the app (`proxy_set_header`), by name. */
export function readmeProxyHeaders(): Map<string, string> {
  const readme = readFileSync(join(process.cwd(), "README.md"), "utf8");
  const block = /```nginx\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";
  return new Map(
    [...block.matchAll(/^\s*proxy_set_header\s+(\S+)\s+("[^"]*"|\S+);/gm)].map(
      ([, name = "", value = ""]) => [name.toLowerCase(), value],
    ),
  );
}
