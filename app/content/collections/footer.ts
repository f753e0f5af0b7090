/** The footer's words: the tagline, the links, the lists of what a visitor can ask for, and the legal line. */
import { z } from "zod";
import { defineCollection } from "./collection";
import { text } from "./fields";
import { quoted } from "./quoted";

export const footerCollection = defineCollection({
  name: "footer",
  label: "Footer",
  kind: "file",
  format: "yaml",
  schema: z.object({
    tagline: text(120).meta({ title: "Tagline", description: "Below the logo" }),
    caseStudies: text(30).meta({ title: "Link to the case studies" }),
    insights: text(30).meta({ title: "Link to the insights" }),
    groups: z
      .array(
        z.object({
          heading: text(30).meta({ title: "Heading" }),
          items: z
            .array(text(40))
            .min(1)
            .max(8)
            .meta({ title: "Items", description: "Each links to the enquiry form", widget: "list" }),
        }),
      )
      .min(1)
      .max(4)
      .meta({
        title: "Lists",
        description:
          "The specification asks for three: the services, the talent a client can hire and the ready-made solutions",
        widget: "list",
      }),
    rights: text(40).meta({ title: "After the copyright year and name", ...quoted("ALL RIGHTS RESERVED") }),
    terms: text(30).meta({ title: "Link to the terms", ...quoted("Terms of Service") }),
    privacy: text(30).meta({ title: "Link to the privacy policy", ...quoted("Privacy Policy") }),
    cookies: text(30).meta({ title: "Link to the cookie policy" }),
    loading: text(30).meta({
      title: "While a policy loads",
      description: "In the dialog a policy link opens with JavaScript, until its text arrives",
    }),
  }),
});
