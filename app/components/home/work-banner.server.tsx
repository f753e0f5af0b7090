/** The 'Dive Into Our Work' banner: the case study content/home.yml names, rendered on the server only. */
import { ContentImage } from "~/components/content-image";
import { ResultFigures } from "~/components/result-figures";
import { home } from "~/content/generated/home.server";
import { caseStudyBySlug } from "~/content/pages.server";

/**
 * 'Dive Into Our Work': the named case study's cover, client, sector, summary and results, read
 * from the case study itself (the content build refuses a name that is no published study).
 */
export function WorkBanner() {
  const { work } = home;
  const lookup = caseStudyBySlug(work.caseStudy);
  if (lookup.found !== "page") return null;
  const study = lookup.entry;
  return (
    <article aria-labelledby="work-heading" className="grid gap-8">
      <header className="grid gap-3 text-center">
        <h3 id="work-heading" className="font-extrabold text-3xl tracking-tight sm:text-4xl">
          {work.heading}
        </h3>
        <p className="mx-auto max-w-2xl text-lg text-muted">{work.lead}</p>
      </header>
      <figure className="overflow-hidden rounded-[2rem] bg-white shadow-2xl shadow-primary/15 ring-1 ring-primary/10">
        <ContentImage
          image={study.cover}
          sizes="(min-width: 1280px) 1232px, calc(100vw - 48px)"
          className="h-auto w-full"
        />
        <figcaption className="grid gap-6 p-6 sm:p-8 lg:grid-cols-[1.4fr_1fr] lg:items-center">
          <div className="grid gap-2">
            <p className="font-semibold text-primary text-sm">{study.sector}</p>
            <p className="font-bold text-2xl text-ink">{study.client}</p>
            <p className="text-muted">{study.summary}</p>
            <p>
              <a
                href={`/case-studies/${study.slug}`}
                className="font-semibold text-primary-dark underline underline-offset-4"
              >
                {work.link.replaceAll("{client}", study.client)}
              </a>
            </p>
          </div>
          <ResultFigures results={study.results} />
        </figcaption>
      </figure>
    </article>
  );
}
