/**
 * The openings of the hydrated home sections, rendered on the server only (their words never
 * travel as loader data or JavaScript): the services', the partners' and the reviews' heading.
 */
import { SectionIntro } from "~/components/home/section-intro";
import { home } from "~/content/generated/home.server";

export function ServicesIntro() {
  const { eyebrow, heading, lead } = home.services;
  return <SectionIntro id="services-heading" level={2} eyebrow={eyebrow} heading={heading} lead={lead} />;
}

export function PartnersIntro() {
  const { eyebrow, heading, lead } = home.partners;
  return <SectionIntro id="partners-heading" level={3} eyebrow={eyebrow} heading={heading} lead={lead} />;
}

/** The reviews section's heading, for assistive technology (its blocks have visible headings). */
export function ReviewsHeading() {
  return (
    <h2 id="testimonial-heading" className="sr-only">
      {home.reviews.heading}
    </h2>
  );
}
