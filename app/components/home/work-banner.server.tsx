/** The 'Dive Into Our Work' banner with the PawPal case study, rendered on the server only. */
import { ResultFigures } from "~/components/result-figures";
import { featuredWork } from "~/content/work";

/** 'Dive Into Our Work': the PawPal pet-care case study. */
export function WorkBanner() {
  const { project, image } = featuredWork;
  return (
    <article aria-labelledby="work-heading" className="grid gap-8">
      <header className="grid gap-3 text-center">
        <h3 id="work-heading" className="font-extrabold text-3xl tracking-tight sm:text-4xl">
          {featuredWork.heading}
        </h3>
        <p className="mx-auto max-w-2xl text-lg text-muted">{featuredWork.introduction}</p>
      </header>
      <figure className="overflow-hidden rounded-[2rem] bg-white shadow-2xl shadow-primary/15 ring-1 ring-primary/10">
        <img
          src={image.src}
          alt={featuredWork.imageAlt}
          width={image.width}
          height={image.height}
          loading="lazy"
          decoding="async"
          className="h-auto w-full"
        />
        <figcaption className="grid gap-6 p-6 sm:p-8 lg:grid-cols-[1.4fr_1fr] lg:items-center">
          <div className="grid gap-2">
            <p className="font-semibold text-primary text-sm">{project.kind}</p>
            <p className="font-bold text-2xl text-ink">{project.name}</p>
            <p className="text-muted">{project.summary}</p>
            <p>
              <a
                href={featuredWork.caseStudyPath}
                className="font-semibold text-primary-dark underline underline-offset-4"
              >
                Read the {project.name} case study
              </a>
            </p>
          </div>
          <ResultFigures results={project.results} />
        </figcaption>
      </figure>
    </article>
  );
}
