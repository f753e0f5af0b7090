/** /case-studies: every published case study, newest first, each with its cover, client and summary. */
import type { MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ContentImage } from "~/components/content-image";
import { Breadcrumbs, EnquireCall } from "~/components/content-page";
import { breadcrumbJsonLd } from "~/content/page-json-ld";
import { fillWords, homeCrumb, pageWords, titleOf } from "~/content/page-words";
import { publishedCaseStudies } from "~/content/pages.server";
import { ogImagePathOf } from "~/media/og-path";
import type { RootMatch } from "~/root-data";
import { buildMeta } from "~/utils/meta";

/** The same page for everyone (docs/decisions/011-shared-documents.md), and it needs no script. */
export const handle = { sharedDocument: true, hydrate: false };

export function loader() {
  return {
    studies: publishedCaseStudies().map(({ slug, title, client, sector, summary, cover }) => ({
      slug,
      title,
      client,
      sector,
      summary,
      cover,
    })),
  };
}

const words = pageWords.caseStudies;
const trail = [homeCrumb(), { name: words.heading, path: "/case-studies" }];

export const meta: MetaFunction<typeof loader, RootMatch> = ({ matches }) => {
  const siteUrl = matches.find((match) => match.id === "root")?.data?.siteUrl ?? "";
  return [
    ...buildMeta({
      title: titleOf(words.heading),
      description: fillWords(words.description),
      path: "/case-studies",
      siteUrl,
      image: ogImagePathOf("lists", "case-studies"),
    }),
    { "script:ld+json": breadcrumbJsonLd(siteUrl, trail) },
  ];
};

/** A card's width: a third of max-w-7xl less px-6 and gap-8 from lg, a half from md, else the page's. */
const cardWidth =
  "(min-width: 1280px) 390px, (min-width: 1024px) calc((100vw - 112px) / 3), (min-width: 768px) calc((100vw - 80px) / 2), calc(100vw - 48px)";

export default function CaseStudiesPage() {
  const { studies } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-7xl px-6 py-12 lg:py-16">
      <Breadcrumbs trail={trail} />
      <h1 className="mt-6 font-extrabold text-3xl tracking-tight sm:text-5xl">{words.heading}</h1>
      <p className="mt-4 max-w-2xl text-lg text-muted">{words.lead}</p>
      <ul className="mt-10 grid gap-8 md:grid-cols-2 lg:grid-cols-3">
        {studies.map((study, index) => (
          <li
            key={study.slug}
            className="overflow-hidden rounded-3xl bg-white shadow-lg ring-1 ring-primary/10"
          >
            {/* The first card's cover is the page's largest image on a phone: fetched first. */}
            <ContentImage
              image={study.cover}
              sizes={cardWidth}
              className="h-auto w-full"
              priority={index === 0}
            />
            <div className="grid gap-2 p-6">
              <p className="font-semibold text-primary-dark text-sm">
                {study.client} · {study.sector}
              </p>
              <h2 className="font-bold text-ink text-xl">
                <a href={`/case-studies/${study.slug}`} className="underline-offset-4 hover:underline">
                  {study.title}
                </a>
              </h2>
              <p className="text-muted">{study.summary}</p>
            </div>
          </li>
        ))}
      </ul>
      <EnquireCall {...words.call} />
    </div>
  );
}
