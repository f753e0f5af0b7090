/** The services as native `<details>` disclosures, rendered on the server only: the accordion without JavaScript and at 768 px or less. */
import { ChevronIcon } from "~/components/home/chevron-icon";
import { useHomeContent } from "~/components/home/home-content";
import { ServiceBody } from "~/components/home/service-body";

/**
 * The accordion: native exclusive `<details>`, the first one open, so every service is
 * reachable at every width without JavaScript, and one is open at a time. Closed panels' lazy
 * images are not fetched. Server-only: hydration adopts the server's markup as it is, so it
 * never ships as JavaScript (services-showcase keeps it in step with the tabs).
 */
export function ServicesDisclosures() {
  return <DisclosureList />;
}

function DisclosureList() {
  const { services } = useHomeContent();
  return (
    <div className="grid gap-3" data-services-variant="disclosures">
      {services.map((service, index) => (
        <details key={service.id} name="services" open={index === 0} className="service-card group">
          <summary className="service-header">
            <h3 className="font-bold text-lg">{service.label}</h3>
            <ChevronIcon className="transition-transform group-open:rotate-180" />
          </summary>
          <div className="px-5 pb-6 sm:px-6">
            <ServiceBody service={service} showImage />
          </div>
        </details>
      ))}
    </div>
  );
}
