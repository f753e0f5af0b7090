/** Where a page of /insights is, and its trail from the home page. */
import type { Crumb } from "~/content/page-json-ld";
import { fillWords, homeCrumb, pageWords } from "~/content/page-words";

export const insightsPagePath = (page: number) => (page === 1 ? "/insights" : `/insights/page/${page}`);

/** The later pages' own name: "Page 2". */
export const insightsPageName = (page: number) => fillWords(pageWords.insights.page, { page });

export function insightsTrail(page: number): Crumb[] {
  const trail = [homeCrumb(), { name: pageWords.insights.heading, path: "/insights" }];
  return page === 1 ? trail : [...trail, { name: insightsPageName(page), path: insightsPagePath(page) }];
}
