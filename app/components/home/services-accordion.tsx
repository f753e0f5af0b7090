/** The services as an accordion on narrow screens (768 px or less), once the page is hydrated. */
import { ChevronIcon } from "~/components/home/chevron-icon";
import { ServiceBody } from "~/components/home/service-body";
import type { Service } from "~/content/services";

/** Narrow screens (768 px or less): one service expanded at a time. */
export function ServicesAccordion({
  services,
  expanded,
  onToggle,
}: {
  services: readonly Service[];
  expanded: number | null;
  onToggle: (index: number) => void;
}) {
  return (
    <div className="grid gap-3" data-services-variant="accordion">
      {services.map((service, index) => {
        const open = expanded === index;
        const headerId = `service-header-${service.id}`;
        const panelId = `service-region-${service.id}`;
        return (
          <div key={service.id} className="service-card">
            <h3 className="font-bold text-lg">
              <button
                type="button"
                id={headerId}
                aria-expanded={open}
                aria-controls={panelId}
                onClick={() => onToggle(index)}
                className="service-header w-full text-left"
              >
                {service.label}
                <ChevronIcon className={`transition-transform ${open ? "rotate-180" : ""}`} />
              </button>
            </h3>
            <section id={panelId} aria-labelledby={headerId} hidden={!open} className="px-5 pb-6">
              {open ? <ServiceBody service={service} showImage /> : null}
            </section>
          </div>
        );
      })}
    </div>
  );
}
