/** The closing 'contact us' blocks every policy shares, built from the site's details. */
import { formatAddress, site } from "~/content/site";
import { whatsAppHref } from "~/content/whatsapp";
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
        ...(whatsAppHref() === null || site.whatsapp === undefined
          ? []
          : [`WhatsApp: ${site.whatsapp.display} (the “Chat on WhatsApp” link on our pages)`]),
        `Post: ${site.name}, ${formatAddress()}`,
      ],
    },
  ];
}
