/** Shows the services as native disclosures from the server and as tabs, the stylesheet choosing by width. */
import { useEffect, useState } from "react";
import { ServicesDisclosures } from "~/components/home/services-disclosures.server";
import { ServicesTabs } from "~/components/home/services-tabs";
import { ServerRendered } from "~/components/server-rendered";
import type { Service } from "~/content/services";

const disclosuresId = "services-disclosures";

/**
 * The server sends the services twice: native exclusive `<details>` (the accordion: one open
 * at a time, the first open) and the tabs. The stylesheet shows the disclosures without
 * JavaScript and at 768 px or less, the tabs on wider screens with JavaScript (`app.css`,
 * "The services as served come twice"). Hydration keeps both as they are, so it removes and
 * adds nothing, at any width, and a page turned or resized across 768 px changes variant
 * without a render. The two share the selected service: opening a disclosure selects its tab,
 * selecting a tab opens its disclosure.
 */
export function ServicesShowcase({ services }: { services: readonly Service[] }) {
  const [selected, setSelected] = useState(0);

  useEffect(() => {
    const disclosures = document.getElementById(disclosuresId);
    if (!disclosures) return;
    // `toggle` does not bubble: listen while it is captured on the way down.
    const onToggle = (event: Event) => {
      const details = event.target;
      if (!(details instanceof HTMLDetailsElement) || !details.open) return;
      const index = [...disclosures.querySelectorAll("details")].indexOf(details);
      if (index >= 0) setSelected(index);
    };
    disclosures.addEventListener("toggle", onToggle, true);
    return () => disclosures.removeEventListener("toggle", onToggle, true);
  }, []);

  function select(index: number) {
    setSelected(index);
    // The disclosures are the server's markup, not React's: opening one (which closes the
    // others of its `name`) is a plain DOM change React never overwrites.
    const details = document.getElementById(disclosuresId)?.querySelectorAll("details")[index];
    if (details) details.open = true;
  }

  return (
    <>
      <ServerRendered id={disclosuresId} render={ServicesDisclosures} />
      <ServicesTabs services={services} selected={selected} onSelect={select} />
    </>
  );
}
