/**
 * The case studies collection: one Markdown file per case study in content/case-studies/, its
 * front matter the facts the page shows and its body the story.
 */
import * as z from "zod";
import { defineCollection } from "./collection";

export const caseStudies = defineCollection({
  name: "case-studies",
  label: "Case studies",
  kind: "folder",
  format: "markdown",
  schema: z.object({
    title: z
      .string()
      .min(3)
      .max(90)
      .meta({ title: "Title", description: "The page's heading, at most 90 characters." }),
    client: z.string().min(1).max(60).meta({ title: "Client" }),
    sector: z.string().min(1).max(60).meta({ title: "Sector", description: "Pet care, fintech, retail…" }),
    summary: z.string().min(20).max(160).meta({
      title: "Summary",
      description: "One or two sentences: the listing and the search result show them.",
      widget: "text",
    }),
    date: z.iso.date().meta({ title: "Date", widget: "datetime" }),
    cover: z
      .string()
      .min(1)
      .meta({ title: "Cover image", description: "At least 1600 px wide.", widget: "image" }),
    coverAlt: z
      .string()
      .min(1)
      .max(200)
      .meta({ title: "Cover image's alt text", description: "What the image shows." }),
    stack: z.array(z.string().min(1).max(40)).optional().meta({ title: "Stack" }),
    body: z.string().min(1).meta({ title: "Story", widget: "markdown" }),
  }),
});
