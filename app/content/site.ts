/** Who the agency is and how to reach it: the one place to edit these details. */
export interface SiteDetails {
  name: string;
  shortName: string;
  tagline: string;
  description: string;
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
  whatsapp?: { display: string; number: string };
  foundingYear: number;
}

export const site: SiteDetails = {
  name: "Nirmaan Digital",
  shortName: "Nirmaan",
  tagline: "Purposeful digital products, designed and engineered in India.",
  description:
    "Nirmaan Digital is a software and digital-product agency in Bengaluru. We design and build websites, mobile apps, SaaS platforms and e-commerce stores, and lend dedicated developers and QA engineers to teams that need to ship.",
  enquiryRecipient: "Nirmaan Digital team",
  address: {
    street: "3rd Floor, 27 Residency Road, Shanthala Nagar",
    locality: "Bengaluru",
    region: "Karnataka",
    postalCode: "560025",
    country: "India",
    countryCode: "IN",
    mapsUrl:
      "https://www.google.com/maps/search/?api=1&query=27+Residency+Road%2C+Shanthala+Nagar%2C+Bengaluru+560025",
  },
  email: "hello@nirmaan.digital",
  phone: { display: "+91 80 4718 2290", e164: "+918047182290" },
  whatsapp: { display: "+91 98860 41725", number: "919886041725" },
  foundingYear: 2016,
};

export function formatAddress(address: SiteDetails["address"] = site.address): string {
  return `${address.street}, ${address.locality}, ${address.region} ${address.postalCode}, ${address.country}`;
}
