/** The home page's testimonial section: the partner logos and the case-study banner. */
import { useHomeContent } from "~/components/home/home-content";
import { PartnersCarousel } from "~/components/home/partners-carousel";
import { SectionIntro } from "~/components/home/section-intro";
import { WorkBanner } from "~/components/home/work-banner.server";
import { ServerRendered } from "~/components/server-rendered";

export function ReviewsSection() {
  const { partners, partnersIntro, reviewsHeading } = useHomeContent();
  return (
    <section id="testimonial" aria-labelledby="testimonial-heading" className="py-20 lg:py-28">
      <h2 id="testimonial-heading" className="sr-only">
        {reviewsHeading}
      </h2>
      <div className="mx-auto grid max-w-7xl grid-cols-1 gap-20 px-6">
        <div data-reveal="">
          <ServerRendered id="featured-work" render={WorkBanner} />
        </div>
        <div data-reveal="" className="grid grid-cols-1 gap-10">
          <SectionIntro
            id="partners-heading"
            level={3}
            eyebrow={partnersIntro.eyebrow}
            heading={partnersIntro.heading}
            lead={partnersIntro.lead}
          />
          <PartnersCarousel partners={partners} />
        </div>
      </div>
    </section>
  );
}
