/**
 * Pages that send no script bundle: a route exports `handle = { hydrate: false }` (beside
 * `sharedDocument`, if it has it) and the layout then renders neither Remix's scripts nor its
 * module preloads for it.
 *
 * Why, and what such a page still runs: docs/decisions/038-pages-without-a-bundle.md.
 */

/**
 * Whether a page made of these matched routes loads and hydrates the app's JavaScript: every
 * page does unless one of its routes says `hydrate: false` in its handle.
 */
export function sendsBundle(matches: readonly { handle?: unknown }[]): boolean {
  return !matches.some(
    ({ handle }) =>
      typeof handle === "object" && handle !== null && "hydrate" in handle && handle.hydrate === false,
  );
}
