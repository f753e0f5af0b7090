/** One article: title, author, date, reading time and body, with the newer and older articles linked. */
import { ContentImage } from "~/components/content-image";
import { Breadcrumbs, ContentBody, EnquireCall, formatDate } from "~/components/content-page";
import type { Insight } from "~/content/entries";
import { fillWords, homeCrumb, pageWords } from "~/content/page-words";

/** The trail from the home page to an article. */
export const insightTrail = (article: { title: string; slug: string }) => [
  homeCrumb(),
  { name: pageWords.insights.heading, path: "/insights" },
  { name: article.title, path: `/insights/${article.slug}` },
];

/** A published article beside this one, as its link names it. */
export interface NeighbourLink {
  slug: string;
  title: string;
  lang: Insight["lang"];
}

/** An article's page, from its entry and its neighbours: its route renders it, and so does /admin's preview. */
export function InsightArticle({
  article,
  newer,
  older,
}: {
  article: Insight;
  newer?: NeighbourLink | undefined;
  older?: NeighbourLink | undefined;
}) {
  const hindi = article.lang === "hi";
  const words = pageWords.insight;
  return (
    <div className="mx-auto max-w-3xl px-6 py-12 lg:py-16">
      <Breadcrumbs trail={insightTrail(article)} />
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
            {words.by} <span className="font-semibold text-ink">{article.author}</span> ·{" "}
            <time dateTime={article.date}>{formatDate(article.date)}</time>
            {article.updated && (
              <>
                {" "}
                · {words.updated} <time dateTime={article.updated}>{formatDate(article.updated)}</time>
              </>
            )}{" "}
            · {fillWords(pageWords.readingTime, { minutes: article.readingMinutes })}
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
              <span className="block text-muted text-sm">{words.newer}</span>
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
              <span className="block text-muted text-sm">{words.older}</span>
              <span lang={older.lang} className="font-semibold">
                {older.title}
              </span>
            </a>
          )}
        </nav>
      )}
      <EnquireCall {...words.call} />
    </div>
  );
}
