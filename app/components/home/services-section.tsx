import { DeliveryValues } from "~/components/home/delivery-values";
import { useHomeContent } from "~/components/home/home-content";
import { SectionIntro } from "~/components/home/section-intro";
import { ServicesShowcase } from "~/components/home/services-showcase";
import { useRevealOnScroll } from "~/hooks/use-reveal-on-scroll";

export function ServicesSection() {
  const { services, servicesIntro } = useHomeContent();
  const revealRef = useRevealOnScroll<HTMLDivElement>();
  return (
    <>
      <section id="services" aria-labelledby="services-heading" className="py-20 lg:py-28">
        <div ref={revealRef} className="mx-auto grid max-w-7xl gap-12 px-6">
          <SectionIntro
            id="services-heading"
            level={2}
            eyebrow={servicesIntro.eyebrow}
            heading={servicesIntro.heading}
            introduction={servicesIntro.introduction}
          />
          <ServicesShowcase services={services} />
        </div>
      </section>
      <DeliveryValues />
    </>
  );
}
