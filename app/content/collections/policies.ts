/**
 * The terms, the privacy policy and the cookie policy: one Markdown file each, its `##` headings
 * its sections, with placeholders for the facts the site knows (app/content/policies/placeholders.ts).
 */
import { z } from "zod";
import { defineCollection } from "./collection";
import { dateField, text } from "./fields";
import { type QuotedMeta, quoted } from "./quoted";

const help =
  "Each ## heading starts a section. {{name}}, {{email}}, {{phone}}, {{whatsapp}}, {{address}}, {{city}}, {{region}}, {{country}}, {{short-name}} and {{founding-year}} stand for the site's details; in the privacy policy {{retention-days}}, {{spam-retention-days}}, {{privacy-contact-email}} and {{privacy-contact-name}} for the server's settings. A paragraph or list item that starts with {{if whatsapp}}, {{if privacy-contact-named}} or {{if privacy-contact-unnamed}} shows only when that is so.";

function policyCollection(name: string, label: string, specified?: QuotedMeta) {
  return defineCollection({
    name,
    label,
    kind: "file",
    format: "markdown",
    schema: z.object({
      title: text(60).meta({ title: "Title" }),
      summary: text(200).meta({
        title: "Summary",
        description: "For search results and link previews; {{name}} stands for the agency's name",
        widget: "text",
      }),
      updated: dateField.meta({ title: "Last updated", widget: "datetime" }),
      body: z
        .string()
        .trim()
        .min(1, "is empty")
        .meta({
          title: "Text",
          widget: "markdown",
          description: specified ? `${help} ${specified.description}` : help,
          ...(specified ? { quoted: specified.quoted } : {}),
        }),
    }),
  });
}

/** The policies' collections, whose files the build reads as policies (scripts/lib/content/policy-rules.ts). */
export const policyNames = ["terms-conditions", "privacy-policy", "cookie-policy"] as const;

export const termsCollection = policyCollection(
  "terms-conditions",
  "Terms of Service",
  quoted.avoids(["login", "log-in", "log in", "credentials", "password"], "the site has no sign-in"),
);
export const privacyPolicyCollection = policyCollection(
  "privacy-policy",
  "Privacy Policy",
  quoted.contains(["one month to respond", "under the age of 13"]),
);
export const cookiePolicyCollection = policyCollection(
  "cookie-policy",
  "Cookie Policy",
  quoted.contains(["Save preferences"]),
);
