/** The meta tags of a page of /insights, with the feed linked as an alternate. */
import type { MetaDescriptor } from "@remix-run/node";
import { breadcrumbJsonLd } from "~/content/page-json-ld";
import { fillWords, pageWords, titleOf } from "~/content/page-words";
import { ogImagePathOf } from "~/media/og-path";
import { insightsPageName, insightsPagePath, insightsTrail } from "./insights-trail";
import { buildMeta } from "./meta";

export function insightsMeta(siteUrl: string, page: number): MetaDescriptor[] {
  const words = pageWords.insights;
  return [
    ...buildMeta({
      title: titleOf(page === 1 ? words.heading : `${words.heading}, ${insightsPageName(page)}`),
      description: fillWords(words.description),
      path: insightsPagePath(page),
      siteUrl,
      image: ogImagePathOf("lists", "insights"),
    }),
    {
      tagName: "link",
      rel: "alternate",
      type: "application/atom+xml",
      title: fillWords(words.feedTitle),
      href: `${siteUrl}/insights/feed.xml`,
    },
    { "script:ld+json": breadcrumbJsonLd(siteUrl, insightsTrail(page)) },
  ];
}
