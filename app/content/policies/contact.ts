/** The closing 'contact us' blocks every policy shares, built from the site's details. */
import { formatAddress, site } from "~/content/site";
import type { PolicyBlock } from "./types";

/** The closing "contact us" blocks every policy shares, built from the site details. */
export function contactBlocks(lead: string): PolicyBlock[] {
  return [
    { kind: "paragraph", text: lead },
    {
      kind: "list",
      items: [
        `E-mail: [${site.email}](mailto:${site.email})`,
        `Phone: [${site.phone.display}](tel:${site.phone.e164})`,
        `Post: ${site.name}, ${formatAddress()}`,
      ],
    },
  ];
}
