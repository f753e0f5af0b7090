/** The insights: one Markdown article per file, at /insights/<file name>, in English or Hindi. */
import { z } from "zod";
import { defineCollection } from "./collection";
import { imageField, pageFields, text } from "./fields";

export const insightsCollection = defineCollection({
  name: "insights",
  label: "Insights",
  labelSingular: "article",
  kind: "folder",
  format: "markdown",
  schema: z.object({
    title: text(110).meta({ title: "Title" }),
    description: text(300).meta({
      title: "Summary",
      description: "One or two sentences for the list, the feed and previews",
      widget: "text",
    }),
    author: text(60).meta({ title: "Author" }),
    lang: z
      .enum(["en", "hi"])
      .default("en")
      .meta({ title: "Language", description: "en: English, hi: Hindi", widget: "select" }),
    cover: imageField.optional().meta({ title: "Cover image" }),
    ...pageFields,
  }),
});
