/**
 * The words of the pages that are not the home page: the lists of case studies and insights, a
 * case study's and an article's own words around the entry, the calls to enquire that end them,
 * and the error pages.
 */
import { z } from "zod";
import { defineCollection } from "./collection";
import { text } from "./fields";

/** Text that must keep `placeholder`, which the page fills in. */
const saying = (max: number, placeholder: string, title: string, stands: string) =>
  text(max)
    .refine((value) => value.includes(placeholder), `must keep ${placeholder}, which stands for ${stands}`)
    .meta({ title, description: `${placeholder} stands for ${stands}` });

const withName = (max: number, title: string) =>
  text(max).meta({
    title,
    description: "For search results and link previews; {name} stands for the agency's name",
  });

const heading = text(60).meta({
  title: "Heading",
  description: "Also the trail's link to this list and, with the agency's name, the page's title",
});

const call = z
  .object({
    heading: text(80).meta({ title: "Heading" }),
    text: text(200).meta({ title: "Text", widget: "text" }),
  })
  .meta({ title: "Call to enquire", description: "The box that ends the page; its button is the one above" });

const errorMessage = {
  title: text(80).meta({ title: "Heading" }),
  body: text(200).meta({ title: "Advice", widget: "text" }),
};

export const pagesCollection = defineCollection({
  name: "pages",
  label: "Other pages' words",
  kind: "file",
  format: "yaml",
  schema: z.object({
    home: text(30).meta({ title: "Home", description: "The first link of every page's trail (breadcrumbs)" }),
    enquire: text(40).meta({
      title: "Button of every call to enquire",
      description: "Leads to the enquiry form, at the end of every list, case study and article",
    }),
    readingTime: saying(30, "{minutes}", "Reading time", "the article's minutes"),
    caseStudies: z
      .object({
        heading,
        description: withName(170, "Description"),
        lead: text(300).meta({ title: "Lead", widget: "text" }),
        call,
      })
      .meta({ title: "The case studies (/case-studies)" }),
    caseStudy: z
      .object({
        title: saying(
          50,
          "{client}",
          "Title in search results",
          "the client, when the file sets no SEO title",
        ),
        results: text(40).meta({ title: "Heading of the results" }),
        stack: text(40).meta({ title: "Heading of the stack" }),
        call,
      })
      .meta({ title: "A case study" }),
    insights: z
      .object({
        heading,
        description: withName(170, "Description"),
        lead: text(300).meta({ title: "Lead", widget: "text" }),
        feed: text(40).meta({ title: "Link to the feed", description: "After the lead" }),
        feedTitle: withName(60, "The feed's name"),
        page: saying(30, "{page}", "A later page", "its number, in the trail and the page's title"),
        newer: text(40).meta({ title: "Link to newer articles" }),
        older: text(40).meta({ title: "Link to older articles" }),
        call,
      })
      .meta({ title: "The insights (/insights)" }),
    insight: z
      .object({
        by: text(20).meta({ title: "Before the author" }),
        updated: text(30).meta({ title: "Before the date it was updated" }),
        newer: text(40).meta({ title: "Above the newer article's link" }),
        older: text(40).meta({ title: "Above the older article's link" }),
        call,
      })
      .meta({ title: "An article" }),
    policy: z
      .object({
        eyebrow: text(30).meta({ title: "Above the title" }),
        updated: text(30).meta({ title: "Before the date it was updated" }),
        contents: text(30).meta({ title: "Above the list of sections", description: "On wide screens" }),
      })
      .meta({ title: "A policy's page", description: "The terms, the privacy policy and the cookie policy" }),
    errors: z
      .object({
        notFound: z
          .object({
            title: text(60).meta({ title: "Title", description: "With the agency's name, the tab's title" }),
            description: withName(170, "Description"),
            alt: text(250).meta({
              title: "The illustration's alt text",
              description: "The page shows the illustration alone: this is all a screen reader says of it",
            }),
          })
          .meta({ title: "Page not found (404)" }),
        status: saying(30, "{status}", "Above the heading", "the error's number"),
        home: text(40).meta({ title: "Link to the home page" }),
        statuses: z
          .array(
            z.object({
              status: z
                .number()
                .int()
                .min(400)
                .max(599)
                .meta({ title: "Status", description: "Such as 429" }),
              ...errorMessage,
            }),
          )
          .max(20)
          .refine(
            (statuses) => new Set(statuses.map(({ status }) => status)).size === statuses.length,
            "names a status twice",
          )
          .meta({ title: "Errors a visitor can cause", widget: "list" }),
        fallback: z
          .object(errorMessage)
          .meta({ title: "Any other error", description: "Such as a fault of ours (500)" }),
      })
      .meta({ title: "Error pages" }),
  }),
});
