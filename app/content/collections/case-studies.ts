/** The case studies: one Markdown file per project, at /case-studies/<file name>. */
import { z } from "zod";
import { defineCollection } from "./collection";
import { imageField, pageFields, text } from "./fields";

export const caseStudiesCollection = defineCollection({
  name: "case-studies",
  label: "Case studies",
  labelSingular: "case study",
  kind: "folder",
  format: "markdown",
  schema: z.object({
    title: text(90).meta({ title: "Title" }),
    client: text(60).meta({ title: "Client" }),
    sector: text(60).meta({ title: "Sector" }),
    summary: text(300).meta({
      title: "Summary",
      description: "One or two sentences for the list and previews",
      widget: "text",
    }),
    stack: z.array(text(40)).min(1).max(16).meta({ title: "Stack", widget: "list" }),
    results: z
      .array(
        z.object({
          value: text(12).meta({ title: "Figure" }),
          label: text(60).meta({ title: "What it measures" }),
        }),
      )
      .min(1)
      .max(4)
      .meta({ title: "Results", widget: "list" }),
    quote: z
      .object({
        text: text(400).meta({ title: "Quote", widget: "text" }),
        author: text(60).meta({ title: "Who said it" }),
        role: text(80).meta({ title: "Their role" }),
      })
      .optional()
      .meta({ title: "Client quote" }),
    cover: imageField.meta({ title: "Cover image" }),
    images: z.array(imageField).max(8).default([]).meta({ title: "More images", widget: "list" }),
    ...pageFields,
  }),
});
