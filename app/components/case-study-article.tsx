/** One case study: client and sector, the problem, what the agency did, the stack, results, quote and images. */
import { ContentImage } from "~/components/content-image";
import { Breadcrumbs, ContentBody, EnquireCall } from "~/components/content-page";
import { ResultFigures } from "~/components/result-figures";
import type { CaseStudy } from "~/content/entries";
import { homeCrumb, pageWords } from "~/content/page-words";

/** The images' width in the layout: the article's (max-w-4xl, less px-6 each side). */
const articleWidth = "(min-width: 896px) 848px, calc(100vw - 48px)";

/** The trail from the home page to a case study. */
export const caseStudyTrail = (study: { client: string; slug: string }) => [
  homeCrumb(),
  { name: pageWords.caseStudies.heading, path: "/case-studies" },
  { name: study.client, path: `/case-studies/${study.slug}` },
];

/** A case study's page, from its entry: its route renders it, and so does /admin's preview. */
export function CaseStudyArticle({ study }: { study: CaseStudy }) {
  const words = pageWords.caseStudy;
  return (
    <article className="mx-auto max-w-4xl px-6 py-12 lg:py-16" aria-labelledby="page-heading">
      <Breadcrumbs trail={caseStudyTrail(study)} />
      <header className="mt-6 grid gap-4">
        <p className="font-semibold text-primary-dark">
          {study.client} · {study.sector}
        </p>
        <h1 id="page-heading" className="font-extrabold text-3xl tracking-tight sm:text-5xl">
          {study.title}
        </h1>
        <p className="text-lg text-muted">{study.summary}</p>
      </header>
      <figure className="mt-10 overflow-hidden rounded-[2rem] ring-1 ring-primary/10">
        <ContentImage image={study.cover} sizes={articleWidth} className="h-auto w-full" priority />
      </figure>
      <section aria-labelledby="results-heading" className="mt-10">
        <h2 id="results-heading" className="font-bold text-2xl">
          {words.results}
        </h2>
        <div className="mt-4">
          <ResultFigures results={study.results} />
        </div>
      </section>
      <div className="mt-10">
        <ContentBody html={study.html} />
      </div>
      <section aria-labelledby="stack-heading" className="mt-10">
        <h2 id="stack-heading" className="font-bold text-2xl">
          {words.stack}
        </h2>
        <ul className="mt-4 flex flex-wrap gap-2">
          {study.stack.map((item) => (
            <li
              key={item}
              className="rounded-full bg-primary-soft px-4 py-1 font-semibold text-primary-dark text-sm"
            >
              {item}
            </li>
          ))}
        </ul>
      </section>
      {study.images.length > 0 && (
        <section aria-label="Images" className="mt-10 grid gap-6">
          {study.images.map((image) => (
            <ContentImage
              key={image.src}
              image={image}
              sizes={articleWidth}
              className="h-auto w-full rounded-3xl"
            />
          ))}
        </section>
      )}
      {study.quote && (
        <figure className="mt-10 rounded-3xl border-primary border-l-4 bg-primary-soft p-8">
          <blockquote className="text-ink text-xl">“{study.quote.text}”</blockquote>
          <figcaption className="mt-4 text-muted">
            <span className="font-semibold text-ink">{study.quote.author}</span>, {study.quote.role}
          </figcaption>
        </figure>
      )}
      <EnquireCall {...words.call} />
    </article>
  );
}
