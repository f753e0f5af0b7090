/** A page of /insights: the articles newest first, each with its date, author and summary, and links to the other pages. */
import { Breadcrumbs, EnquireCall, formatDate } from "~/components/content-page";
import { fillWords, pageWords } from "~/content/page-words";
import { insightsPagePath, insightsTrail } from "~/utils/insights-trail";

export interface InsightSummary {
  slug: string;
  title: string;
  description: string;
  author: string;
  date: string;
  lang: "en" | "hi";
  readingMinutes: number;
}

interface InsightsListProps {
  insights: InsightSummary[];
  page: number;
  pageCount: number;
}

export function InsightsList({ insights, page, pageCount }: InsightsListProps) {
  const words = pageWords.insights;
  return (
    <div className="mx-auto max-w-4xl px-6 py-12 lg:py-16">
      <Breadcrumbs trail={insightsTrail(page)} />
      <h1 className="mt-6 font-extrabold text-3xl tracking-tight sm:text-5xl">{words.heading}</h1>
      <p className="mt-4 max-w-2xl text-lg text-muted">
        {words.lead} <a href="/insights/feed.xml">{words.feed}</a>.
      </p>
      <ol className="mt-10 grid gap-6">
        {insights.map((article) => (
          <li key={article.slug} className="rounded-3xl bg-white p-6 shadow-lg ring-1 ring-primary/10">
            <h2 className="font-bold text-ink text-xl" lang={article.lang}>
              <a
                href={`/insights/${article.slug}`}
                className={`underline-offset-4 hover:underline${article.lang === "hi" ? " content-devanagari" : ""}`}
              >
                {article.title}
              </a>
            </h2>
            <p className="mt-1 text-muted text-sm">
              <time dateTime={article.date}>{formatDate(article.date)}</time> · {article.author} ·{" "}
              {fillWords(pageWords.readingTime, { minutes: article.readingMinutes })}
            </p>
            <p
              className={`mt-3 text-muted${article.lang === "hi" ? " content-devanagari" : ""}`}
              lang={article.lang}
            >
              {article.description}
            </p>
          </li>
        ))}
      </ol>
      {pageCount > 1 && (
        <nav aria-label="Pages of insights" className="mt-10 flex justify-between font-semibold">
          {page > 1 ? <a href={insightsPagePath(page - 1)}>{words.newer}</a> : <span />}
          {page < pageCount ? <a href={insightsPagePath(page + 1)}>{words.older}</a> : <span />}
        </nav>
      )}
      <EnquireCall {...words.call} />
    </div>
  );
}
