/**
 * What the root loader gives every route: the year for the footer, the site's own origin, and the
 * words of the header and the footer's last line (content/navigation.yml, content/footer.yml).
 */
import { useRouteLoaderData } from "@remix-run/react";
import type { FooterEntry, NavigationEntry } from "~/content/entries";

export interface RootData {
  year: number;
  siteUrl: string;
  /** As loader data, not in the bundle: the words travel once, in the HTML that renders them. */
  words: {
    navigation: NavigationEntry;
    footer: Pick<FooterEntry, "rights" | "terms" | "privacy" | "cookies" | "loading">;
  };
}

/** The root route as another route's `MetaFunction` sees it among its matches. */
export type RootMatch = { root: () => RootData };

/** The root loader's data, absent only on an error page when that loader itself failed. */
export function useRootData(): RootData | undefined {
  return useRouteLoaderData("root") as RootData | undefined;
}
