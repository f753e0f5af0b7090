/**
 * Every policy text, for the routes' loaders on the server: the build's HTML of content/'s
 * policies with their placeholders filled from the site's details and, for the privacy policy's
 * retention and contact, from the server's configuration (the privacy notice reads the same).
 * The `.server` suffix keeps the texts out of the browser bundle: loaders hand them to pages.
 */
import type { PolicyName, PolicyText } from "~/content/entries";
import { policyTexts } from "~/content/generated/policies.server";
import { type PrivacyFacts, privacyFacts } from "~/content/privacy-facts.server";
import { formatAddress, site } from "~/content/site";
import { whatsAppHref } from "~/content/whatsapp";
import { fillPolicyHtml, fillPolicyText, type PolicyFacts } from "./placeholders";
import type { Policy } from "./types";

export type { Policy, PolicySection } from "./types";

/** What a policy's placeholders stand for, on a server with these privacy facts. */
export function policyFactsFrom(privacy: PrivacyFacts): PolicyFacts {
  const named = privacy.contactConfigured && privacy.contact.name !== undefined;
  return {
    text: {
      name: site.name,
      "short-name": site.shortName,
      city: site.address.locality,
      region: site.address.region,
      country: site.address.country,
      address: formatAddress(),
      "founding-year": String(site.foundingYear),
      whatsapp: site.whatsapp?.display ?? "",
      "retention-days": String(privacy.retentionDays),
      "spam-retention-days": String(privacy.spamRetentionDays),
      "privacy-contact-name": privacy.contact.name ?? "",
    },
    links: {
      email: { label: site.email, href: `mailto:${site.email}` },
      phone: { label: site.phone.display, href: `tel:${site.phone.e164}` },
      "privacy-contact-email": { label: privacy.contact.email, href: `mailto:${privacy.contact.email}` },
    },
    conditions: {
      whatsapp: whatsAppHref() !== null,
      "privacy-contact-named": named,
      "privacy-contact-unnamed": !named,
    },
  };
}

/** The policy `name` as its page shows it, filled in with `privacy`'s facts. */
export function policyFor(name: PolicyName, privacy: PrivacyFacts = privacyFacts): Policy {
  return policyOfText(name, policyTexts[name], privacy);
}

/** A policy's text (the build's, or /admin's preview of an entry) as its page `name` shows it. */
export function policyOfText(
  name: PolicyName,
  text: PolicyText,
  privacy: PrivacyFacts = privacyFacts,
): Policy {
  const facts = policyFactsFrom(privacy);
  return {
    path: `/${name}`,
    title: fillPolicyText(text.title, facts),
    summary: fillPolicyText(text.summary, facts),
    updated: text.updated,
    intro: fillPolicyHtml(text.intro, facts),
    sections: text.sections.map((section) => ({
      heading: fillPolicyText(section.heading, facts),
      html: fillPolicyHtml(section.html, facts),
    })),
  };
}

export const termsOfService = policyFor("terms-conditions");
export const privacyPolicy = policyFor("privacy-policy");
export const cookiePolicy = policyFor("cookie-policy");

/** Every policy text, in the order of the footer's links. */
export const policies: readonly Policy[] = [termsOfService, privacyPolicy, cookiePolicy];
