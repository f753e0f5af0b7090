import { ServiceBody } from "~/components/home/service-body";
import type { Service } from "~/content/services";

/**
 * The markup without JavaScript (and before hydration): native exclusive `<details>`, the
 * first one open, so every service is reachable at every width. Closed panels' lazy images
 * are not fetched.
 */
export function ServicesDisclosures({ services }: { services: readonly Service[] }) {
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

export function ChevronIcon({ className = "" }: { className?: string }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" className={`size-5 shrink-0 text-primary ${className}`}>
      <path
        d="M5 7.5l5 5 5-5"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}
