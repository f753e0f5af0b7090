/**
 * The case studies and insights as the routes ask for them: by slug (with former slugs and
 * unpublished pages answered), in pages of the list, and for the sitemap and the feed.
 */
import type { CaseStudy, Insight } from "./entries";
import { caseStudies } from "./generated/case-studies.server";
import { insights } from "./generated/insights.server";
import { INSIGHTS_PER_PAGE } from "./insights-per-page";

export { caseStudies, INSIGHTS_PER_PAGE, insights };

/** What a slug names: a page, a page that moved (301), one taken down (410), or nothing (404). */
export type Lookup<Entry> =
  | { found: "page"; entry: Entry }
  | { found: "moved"; slug: string }
  | { found: "gone" }
  | { found: "nothing" };

function lookUp<Entry extends { slug: string; published: boolean; redirect_from: string[] }>(
  entries: readonly Entry[],
  slug: string,
): Lookup<Entry> {
  const entry = entries.find((candidate) => candidate.slug === slug);
  if (entry) return entry.published ? { found: "page", entry } : { found: "gone" };
  const renamed = entries.find((candidate) => candidate.redirect_from.includes(slug));
  if (!renamed) return { found: "nothing" };
  return renamed.published ? { found: "moved", slug: renamed.slug } : { found: "gone" };
}

export const caseStudyBySlug = (slug: string) => lookUp(caseStudies, slug);
export const insightBySlug = (slug: string) => lookUp(insights, slug);

export const publishedCaseStudies = (): CaseStudy[] => caseStudies.filter((entry) => entry.published);
/** Published articles, newest first. */
export const publishedInsights = (): Insight[] => insights.filter((entry) => entry.published);

/** The number of pages of /insights (at least 1, which may be empty). */
export function insightsPageCount(): number {
  return Math.max(1, Math.ceil(publishedInsights().length / INSIGHTS_PER_PAGE));
}

/** The articles of page `page` (from 1) of /insights. */
export function insightsOnPage(page: number): Insight[] {
  return publishedInsights().slice((page - 1) * INSIGHTS_PER_PAGE, page * INSIGHTS_PER_PAGE);
}

/** The published articles either side of one: the newer and the older. */
export function neighboursOf(slug: string): { newer?: Insight; older?: Insight } {
  const list = publishedInsights();
  const index = list.findIndex((entry) => entry.slug === slug);
  return { newer: list[index - 1], older: list[index + 1] };
}

/** The date a page last changed: `updated`, else `date`. */
export const lastModified = (entry: { date: string; updated?: string }): string =>
  entry.updated ?? entry.date;
