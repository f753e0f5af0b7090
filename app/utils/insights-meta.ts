/** The meta tags of a page of /insights, with the feed linked as an alternate. */
import type { MetaDescriptor } from "@remix-run/node";
import { breadcrumbJsonLd } from "~/content/page-json-ld";
import { site } from "~/content/site";
import { ogImagePathOf } from "~/media/og-path";
import { buildMeta } from "./meta";

export function insightsMeta(siteUrl: string, page: number): MetaDescriptor[] {
  const path = page === 1 ? "/insights" : `/insights/page/${page}`;
  const trail = [
    { name: "Home", path: "/" },
    { name: "Insights", path: "/insights" },
  ];
  return [
    ...buildMeta({
      title: page === 1 ? `Insights — ${site.name}` : `Insights, page ${page} — ${site.name}`,
      description: `Articles from ${site.name} on building software: estimates, performance, mobile apps and shipping products.`,
      path,
      siteUrl,
      image: ogImagePathOf("lists", "insights"),
    }),
    {
      tagName: "link",
      rel: "alternate",
      type: "application/atom+xml",
      title: `${site.name} insights`,
      href: `${siteUrl}/insights/feed.xml`,
    },
    {
      "script:ld+json": breadcrumbJsonLd(
        siteUrl,
        page === 1 ? trail : [...trail, { name: `Page ${page}`, path }],
      ),
    },
  ];
}
