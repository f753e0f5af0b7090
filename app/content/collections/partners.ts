/** The partners of 'Trusted By': one YAML file listing each brand's name and logo, in carousel order. */
import { z } from "zod";
import { defineCollection } from "./collection";
import { imageField, slugField, text } from "./fields";

export const partnersCollection = defineCollection({
  name: "partners",
  label: "Partners",
  kind: "file",
  format: "yaml",
  schema: z.object({
    partners: z
      .array(
        z.object({
          id: slugField.meta({ title: "Id" }),
          name: text(60).meta({ title: "Name" }),
          logo: imageField.meta({ title: "Logo", description: "Drawn at 200 × 64" }),
        }),
      )
      .min(1)
      .max(20)
      .meta({ title: "Partners", widget: "list" }),
  }),
});
