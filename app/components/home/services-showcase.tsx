/** Shows the services as disclosures from the server, then as tabs or an accordion by screen width. */
import { useState } from "react";
import { ServicesAccordion } from "~/components/home/services-accordion";
import { ServicesDisclosures } from "~/components/home/services-disclosures.server";
import { ServicesTabs } from "~/components/home/services-tabs";
import { ServerRendered } from "~/components/server-rendered";
import type { Service } from "~/content/services";
import { useMediaQuery } from "~/hooks/use-media-query";

/** The accordion layout applies at 768 px or less (the original specification's breakpoint). */
export const accordionQuery = "(max-width: 768px)";

/**
 * After hydration: tabs on wide screens, a one-at-a-time accordion on narrow ones, sharing the
 * selected service. The server sends native disclosures and the tabs both, and the stylesheet
 * shows the one this page will keep (the tabs on a wide screen with JavaScript), so hydration
 * changes no height above a visitor who opened the page further down; the accordion is as
 * tall as the disclosures. Once hydrated, only the variant in use remains.
 */
export function ServicesShowcase({ services }: { services: readonly Service[] }) {
  const narrow = useMediaQuery(accordionQuery);
  const [selected, setSelected] = useState<number | null>(0);

  if (narrow) {
    return (
      <ServicesAccordion
        services={services}
        expanded={selected}
        onToggle={(index) => setSelected((current) => (current === index ? null : index))}
      />
    );
  }
  return (
    <>
      {narrow ?? <ServerRendered id="services-disclosures" render={ServicesDisclosures} />}
      <ServicesTabs services={services} selected={selected ?? 0} onSelect={setSelected} />
    </>
  );
}
