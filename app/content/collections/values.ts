/** The core values ('Our Core Values', the home page's #insights section): one YAML file, in order. */
import { z } from "zod";
import { defineCollection } from "./collection";
import { slugField, text } from "./fields";
import { quoted } from "./quoted";

export const valueIcons = ["simple", "reliable", "care"] as const;

export const valuesCollection = defineCollection({
  name: "values",
  label: "Core values",
  kind: "file",
  format: "yaml",
  schema: z.object({
    values: z
      .array(
        z.object({
          id: slugField.meta({ title: "Id" }),
          title: text(40).meta({ title: "Title", ...quoted.among(["Simple", "Reliable", "Care"]) }),
          summary: text(80).meta({ title: "Summary" }),
          description: text(400).meta({
            title: "Description",
            widget: "text",
            ...quoted.avoids(
              ["insurance", "policyholder", "premium", "claim"],
              "the values are told in terms of software delivery, not the insurance words the specification copied by mistake",
            ),
          }),
          icon: z.enum(valueIcons).meta({ title: "Icon", widget: "select" }),
        }),
      )
      .min(1)
      .max(6)
      .meta({ title: "Values", widget: "list" }),
  }),
});
