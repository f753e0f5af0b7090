/** The home page's testimonial section: the partner logos and the case-study banner. */
import { useHomeContent } from "~/components/home/home-content";
import { PartnersCarousel } from "~/components/home/partners-carousel";
import { PartnersIntro, ReviewsHeading } from "~/components/home/section-intros.server";
import { WorkBanner } from "~/components/home/work-banner.server";
import { ServerRendered } from "~/components/server-rendered";

export function ReviewsSection() {
  const { partners } = useHomeContent();
  return (
    <section id="testimonial" aria-labelledby="testimonial-heading" className="py-20 lg:py-28">
      <ServerRendered id="reviews-heading" render={ReviewsHeading} />
      <div className="mx-auto grid max-w-7xl grid-cols-1 gap-20 px-6">
        <div data-reveal="">
          <ServerRendered id="featured-work" render={WorkBanner} />
        </div>
        <div data-reveal="" className="grid grid-cols-1 gap-10">
          <ServerRendered id="partners-intro" render={PartnersIntro} />
          <PartnersCarousel partners={partners} />
        </div>
      </div>
    </section>
  );
}
