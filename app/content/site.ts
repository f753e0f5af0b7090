/**
 * Who the agency is and how to reach it (its address, e-mail and phone: content/contact.yml; its
 * description and tagline: content/home.yml and content/footer.yml, for the server alone).
 */
import { contact } from "./generated/contact";

export interface SiteDetails {
  name: string;
  shortName: string;
  /** How enquiry e-mails address the agency (`to_name` in the mail template). */
  enquiryRecipient: string;
  address: {
    street: string;
    locality: string;
    region: string;
    postalCode: string;
    country: string;
    countryCode: string;
    mapsUrl: string;
  };
  email: string;
  phone: { display: string; e164: string };
  /**
   * The agency's WhatsApp number, a mobile: `number` in WhatsApp's international form (digits
   * only, country code first, no `+` and no leading zero). Absent: no "Chat on WhatsApp" link.
   */
  whatsapp?: { display: string; number: string; label: string; greeting: string };
  foundingYear: number;
}

export const site: SiteDetails = {
  name: "Nirmaan Digital",
  shortName: "Nirmaan",
  enquiryRecipient: "Nirmaan Digital team",
  // The contact facts are edited in content/contact.yml.
  address: contact.address,
  email: contact.email,
  phone: contact.phone,
  whatsapp: contact.whatsapp,
  foundingYear: 2016,
};

export function formatAddress(address: SiteDetails["address"] = site.address): string {
  return `${address.street}, ${address.locality}, ${address.region} ${address.postalCode}, ${address.country}`;
}
