/** /case-studies/<slug>: one case study's page (~/components/case-study-article), with its meta tags and structured data. */
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { CaseStudyArticle, caseStudyTrail } from "~/components/case-study-article";
import { breadcrumbJsonLd, creativeWorkJsonLd } from "~/content/page-json-ld";
import { entryOrThrow } from "~/content/page-routes.server";
import { fillWords, pageWords, titleOf } from "~/content/page-words";
import { caseStudyBySlug } from "~/content/pages.server";
import { ogImagePathOf } from "~/media/og-path";
import type { RootMatch } from "~/root-data";
import { errorMeta } from "~/utils/error-meta";
import { buildMeta } from "~/utils/meta";

/** The same page for everyone (docs/decisions/011-shared-documents.md), and it needs no script. */
export const handle = { sharedDocument: true, hydrate: false };

export function loader({ params, request }: LoaderFunctionArgs) {
  return { study: entryOrThrow(caseStudyBySlug(params.slug ?? ""), request, "/case-studies/") };
}

export const meta: MetaFunction<typeof loader, RootMatch> = ({ data, matches }) => {
  if (!data) return errorMeta();
  const { study } = data;
  const siteUrl = matches.find((match) => match.id === "root")?.data?.siteUrl ?? "";
  const image = study.seo.image?.src ?? ogImagePathOf("case-studies", study.slug);
  return [
    ...buildMeta({
      title: study.seo.title ?? titleOf(fillWords(pageWords.caseStudy.title, { client: study.client })),
      description: study.seo.description ?? study.summary,
      path: `/case-studies/${study.slug}`,
      siteUrl,
      image,
      type: "article",
    }),
    { "script:ld+json": creativeWorkJsonLd(siteUrl, study, image) },
    { "script:ld+json": breadcrumbJsonLd(siteUrl, caseStudyTrail(study)) },
  ];
};

export default function CaseStudyPage() {
  const { study } = useLoaderData<typeof loader>();
  return <CaseStudyArticle study={study} />;
}
