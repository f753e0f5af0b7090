/** /insights/<slug>: one article's page (~/components/insight-article), with its meta tags, structured data and Devanagari font. */
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { InsightArticle, insightTrail } from "~/components/insight-article";
import { blogPostingJsonLd, breadcrumbJsonLd } from "~/content/page-json-ld";
import { entryOrThrow } from "~/content/page-routes.server";
import { titleOf } from "~/content/page-words";
import { insightBySlug, neighboursOf } from "~/content/pages.server";
import { devanagariFontLinks } from "~/media/devanagari-font";
import { ogImagePathOf } from "~/media/og-path";
import type { RootMatch } from "~/root-data";
import { errorMeta } from "~/utils/error-meta";
import { buildMeta } from "~/utils/meta";

/** The same page for everyone (docs/decisions/011-shared-documents.md), and it needs no script. */
export const handle = { sharedDocument: true, hydrate: false };

export function loader({ params, request }: LoaderFunctionArgs) {
  const article = entryOrThrow(insightBySlug(params.slug ?? ""), request, "/insights/");
  const { newer, older } = neighboursOf(article.slug);
  const link = (entry: typeof newer) => entry && { slug: entry.slug, title: entry.title, lang: entry.lang };
  return { article, newer: link(newer), older: link(older) };
}

export const meta: MetaFunction<typeof loader, RootMatch> = ({ data, matches }) => {
  if (!data) return errorMeta();
  const { article } = data;
  const siteUrl = matches.find((match) => match.id === "root")?.data?.siteUrl ?? "";
  const image = article.seo.image?.src ?? ogImagePathOf("insights", article.slug);
  return [
    ...buildMeta({
      title: article.seo.title ?? titleOf(article.title),
      description: article.seo.description ?? article.description,
      path: `/insights/${article.slug}`,
      siteUrl,
      image,
      type: "article",
    }),
    { property: "article:published_time", content: article.date },
    { property: "article:modified_time", content: article.updated ?? article.date },
    { property: "article:author", content: article.author },
    { "script:ld+json": blogPostingJsonLd(siteUrl, article, image) },
    { "script:ld+json": breadcrumbJsonLd(siteUrl, insightTrail(article)) },
    // The self-hosted Devanagari font, for a Hindi article only: `links` cannot see the loader's
    // data, so its stylesheet is linked from here, in the head all the same.
    ...(article.lang === "hi" ? devanagariFontLinks.map((link) => ({ tagName: "link", ...link })) : []),
  ];
};

export default function InsightPage() {
  const { article, newer, older } = useLoaderData<typeof loader>();
  return <InsightArticle article={article} newer={newer} older={older} />;
}
