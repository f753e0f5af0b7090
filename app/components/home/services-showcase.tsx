/** Shows the services as disclosures from the server, then as tabs or an accordion by screen width. */
import { useState } from "react";
import { ServicesAccordion } from "~/components/home/services-accordion";
import { ServicesDisclosures } from "~/components/home/services-disclosures";
import { ServicesTabs } from "~/components/home/services-tabs";
import type { Service } from "~/content/services";
import { useMediaQuery } from "~/hooks/use-media-query";

/** The accordion layout applies at 768 px or less (the original specification's breakpoint). */
export const accordionQuery = "(max-width: 768px)";

/**
 * Server markup is a list of native disclosures; after hydration it becomes tabs on wide
 * screens or a one-at-a-time accordion on narrow ones, sharing the selected service.
 */
export function ServicesShowcase({ services }: { services: readonly Service[] }) {
  const narrow = useMediaQuery(accordionQuery);
  const [selected, setSelected] = useState<number | null>(0);

  if (narrow === null) return <ServicesDisclosures services={services} />;
  if (narrow) {
    return (
      <ServicesAccordion
        services={services}
        expanded={selected}
        onToggle={(index) => setSelected((current) => (current === index ? null : index))}
      />
    );
  }
  return <ServicesTabs services={services} selected={selected ?? 0} onSelect={setSelected} />;
}
