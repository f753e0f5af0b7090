/** The agency's schema.org structured data, as the inline JSON-LD script every page carries. */
import { footer } from "~/content/generated/footer.server";
import { home } from "~/content/generated/home.server";
import { services } from "~/content/generated/services";
import { seo } from "~/content/seo";
import { site } from "~/content/site";
import { env } from "~/env.server";

/** The agency as schema.org structured data: who it is, where, how to reach it, what it offers. */
export function organizationJsonLd(siteUrl: string = env.SITE_URL) {
  return {
    "@context": "https://schema.org",
    "@type": "ProfessionalService",
    "@id": `${siteUrl}/#organization`,
    name: site.name,
    alternateName: site.shortName,
    description: home.description,
    slogan: footer.tagline,
    url: `${siteUrl}/`,
    logo: `${siteUrl}/icon-512.png`,
    image: `${siteUrl}${seo.ogImage.path}`,
    foundingDate: String(site.foundingYear),
    email: site.email,
    telephone: site.phone.e164,
    address: {
      "@type": "PostalAddress",
      streetAddress: site.address.street,
      addressLocality: site.address.locality,
      addressRegion: site.address.region,
      postalCode: site.address.postalCode,
      addressCountry: site.address.countryCode,
    },
    hasMap: site.address.mapsUrl,
    areaServed: "Worldwide",
    hasOfferCatalog: {
      "@type": "OfferCatalog",
      name: `${site.name} services`,
      itemListElement: services.map((service) => ({
        "@type": "Offer",
        itemOffered: { "@type": "Service", name: service.label, description: service.summary },
      })),
    },
  };
}

/** JSON for an inline script: `<` is escaped so no text can close the script element early. */
export function serializeJsonLd(data: unknown): string {
  return JSON.stringify(data).replace(/</g, "\\u003c");
}

/** The script's text, for `<ServerInlineScript render={organizationJsonLdScript} />`. */
export function organizationJsonLdScript(): string {
  return serializeJsonLd(organizationJsonLd());
}
