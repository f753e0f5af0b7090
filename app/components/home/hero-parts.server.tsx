/**
 * The hero's parts with nothing to hydrate, rendered on the server only (their words never travel
 * as loader data or JavaScript): the tagline, the lead with the calls to action and the figures,
 * and the illustration.
 */
import { home } from "~/content/generated/home.server";
import heroIllustration from "~/images/hero-illustration.svg";

const { hero } = home;

export function HeroTagline() {
  return (
    <p className="w-fit rounded-full bg-white px-4 py-1.5 font-semibold text-primary-dark text-xs shadow-sm ring-1 ring-primary/15 sm:text-sm">
      {hero.tagline}
    </p>
  );
}

/** The lead, the calls to action (to the form and to the services) and the figures. */
export function HeroDetails() {
  return (
    <>
      <p className="max-w-xl text-lg text-muted">{hero.lead}</p>
      <p className="flex flex-wrap gap-4">
        <a
          href="#contact"
          className="inline-flex items-center gap-2 rounded-full bg-primary px-7 py-3 font-semibold text-white shadow-lg shadow-primary/25 transition-colors hover:bg-primary-dark"
        >
          {hero.primaryAction}
          <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4" fill="currentColor">
            <path d="M11.3 4.3a1 1 0 0 1 1.4 0l5 5a1 1 0 0 1 0 1.4l-5 5a1 1 0 0 1-1.4-1.4l3.3-3.3H3a1 1 0 1 1 0-2h11.6l-3.3-3.3a1 1 0 0 1 0-1.4z" />
          </svg>
        </a>
        <a
          href="#services"
          className="inline-flex items-center rounded-full border-2 border-secondary px-7 py-3 font-semibold text-secondary transition-colors hover:bg-secondary hover:text-white"
        >
          {hero.secondaryAction}
          <span className="sr-only"> {hero.secondaryActionDetail}</span>
        </a>
      </p>
      <dl className="grid max-w-md grid-cols-3 gap-4 border-primary/15 border-t pt-6">
        {hero.figures.map((item) => (
          <div key={item.label} className="flex flex-col-reverse">
            <dt className="text-muted text-sm">{item.label}</dt>
            <dd className="font-extrabold text-2xl text-ink">{item.value}</dd>
          </div>
        ))}
      </dl>
    </>
  );
}

export function HeroIllustration() {
  return (
    <img
      src={heroIllustration}
      alt={hero.illustrationAlt}
      width={560}
      height={480}
      decoding="async"
      className="mx-auto h-auto w-full max-w-md lg:max-w-none"
    />
  );
}
