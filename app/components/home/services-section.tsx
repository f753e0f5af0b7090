/** The home page's services section, followed by the server-rendered 'How We Deliver Value'. */
import { DeliveryValues } from "~/components/home/delivery-values.server";
import { useHomeContent } from "~/components/home/home-content";
import { ServicesIntro } from "~/components/home/section-intros.server";
import { ServicesShowcase } from "~/components/home/services-showcase";
import { ServerRendered } from "~/components/server-rendered";

export function ServicesSection() {
  const { services } = useHomeContent();
  return (
    <>
      <section id="services" aria-labelledby="services-heading" className="py-20 lg:py-28">
        <div data-reveal="" className="mx-auto grid max-w-7xl gap-12 px-6">
          <ServerRendered id="services-intro" render={ServicesIntro} />
          <ServicesShowcase services={services} />
        </div>
      </section>
      <ServerRendered id="delivery-values" render={DeliveryValues} />
    </>
  );
}
