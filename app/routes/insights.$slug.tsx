/** One article: title, author, date, reading time and body, with the newer and older articles linked. */
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ContentImage } from "~/components/content-image";
import { Breadcrumbs, ContentBody, EnquireCall, formatDate } from "~/components/content-page";
import { blogPostingJsonLd, breadcrumbJsonLd } from "~/content/page-json-ld";
import { entryOrThrow } from "~/content/page-routes.server";
import { insightBySlug, neighboursOf } from "~/content/pages.server";
import { site } from "~/content/site";
import { devanagariFontLinks } from "~/media/devanagari-font";
import { ogImagePathOf } from "~/media/og-path";
import type { RootMatch } from "~/root-data";
import { buildMeta, errorMeta } from "~/utils/meta";

/** The same page for everyone (docs/decisions/011-shared-documents.md), and it needs no script. */
export const handle = { sharedDocument: true, hydrate: false };

export function loader({ params, request }: LoaderFunctionArgs) {
  const article = entryOrThrow(insightBySlug(params.slug ?? ""), request, "/insights/");
  const { newer, older } = neighboursOf(article.slug);
  const link = (entry: typeof newer) => entry && { slug: entry.slug, title: entry.title, lang: entry.lang };
  return { article, newer: link(newer), older: link(older) };
}

const trailOf = (article: { title: string; slug: string }) => [
  { name: "Home", path: "/" },
  { name: "Insights", path: "/insights" },
  { name: article.title, path: `/insights/${article.slug}` },
];

export const meta: MetaFunction<typeof loader, RootMatch> = ({ data, matches }) => {
  if (!data) return errorMeta();
  const { article } = data;
  const siteUrl = matches.find((match) => match.id === "root")?.data?.siteUrl ?? "";
  const image = article.seo.image?.src ?? ogImagePathOf("insights", article.slug);
  return [
    ...buildMeta({
      title: article.seo.title ?? `${article.title} — ${site.name}`,
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
    { "script:ld+json": breadcrumbJsonLd(siteUrl, trailOf(article)) },
    // The self-hosted Devanagari font, for a Hindi article only: `links` cannot see the loader's
    // data, so its stylesheet is linked from here, in the head all the same.
    ...(article.lang === "hi" ? devanagariFontLinks.map((link) => ({ tagName: "link", ...link })) : []),
  ];
};

export default function InsightPage() {
  const { article, newer, older } = useLoaderData<typeof loader>();
  const hindi = article.lang === "hi";
  return (
    <div className="mx-auto max-w-3xl px-6 py-12 lg:py-16">
      <Breadcrumbs trail={trailOf(article)} />
      <article
        lang={article.lang}
        className={`mt-6${hindi ? " content-devanagari" : ""}`}
        aria-labelledby="page-heading"
      >
        <header className="grid gap-4">
          <h1 id="page-heading" className="font-extrabold text-3xl tracking-tight sm:text-5xl">
            {article.title}
          </h1>
          <p className="text-lg text-muted">{article.description}</p>
          <p lang="en" className="text-muted text-sm">
            By <span className="font-semibold text-ink">{article.author}</span> ·{" "}
            <time dateTime={article.date}>{formatDate(article.date)}</time>
            {article.updated && (
              <>
                {" "}
                · updated <time dateTime={article.updated}>{formatDate(article.updated)}</time>
              </>
            )}{" "}
            · {article.readingMinutes} min read
          </p>
        </header>
        {article.cover && (
          <figure className="mt-8 overflow-hidden rounded-3xl">
            <ContentImage
              image={article.cover}
              sizes="(min-width: 768px) 720px, calc(100vw - 48px)"
              className="h-auto w-full"
              priority
            />
          </figure>
        )}
        <div className="mt-8">
          <ContentBody html={article.html} lang={article.lang} />
        </div>
      </article>
      {(newer || older) && (
        <nav aria-label="More insights" className="mt-12 grid gap-4 sm:grid-cols-2">
          {newer ? (
            <a href={`/insights/${newer.slug}`} rel="prev" className="rounded-2xl p-4 ring-1 ring-primary/20">
              <span className="block text-muted text-sm">Newer article</span>
              <span lang={newer.lang} className="font-semibold">
                {newer.title}
              </span>
            </a>
          ) : (
            <span />
          )}
          {older && (
            <a
              href={`/insights/${older.slug}`}
              rel="next"
              className="rounded-2xl p-4 text-right ring-1 ring-primary/20"
            >
              <span className="block text-muted text-sm">Older article</span>
              <span lang={older.lang} className="font-semibold">
                {older.title}
              </span>
            </a>
          )}
        </nav>
      )}
      <EnquireCall
        heading="Want this kind of thinking on your product?"
        text="Tell us what you are building. A founder or delivery lead replies within one working day."
      />
    </div>
  );
}
