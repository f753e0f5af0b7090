/** What the root loader gives every route: the year for the footer and the site's own origin. */
export interface RootData {
  year: number;
  siteUrl: string;
}

/** The root route as another route's `MetaFunction` sees it among its matches. */
export type RootMatch = { root: () => RootData };
