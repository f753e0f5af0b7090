/** The 'How We Deliver Value' cards: one YAML file listing the six ways of working, in order. */
import { z } from "zod";
import { defineCollection } from "./collection";
import { slugField, text } from "./fields";
import { quoted } from "./quoted";

export const deliveryIcons = ["squad", "supervised", "talent", "marketing", "platforms", "studio"] as const;

export const deliveryCollection = defineCollection({
  name: "delivery",
  label: "How We Deliver Value",
  kind: "file",
  format: "yaml",
  schema: z.object({
    cards: z
      .array(
        z.object({
          id: slugField.meta({ title: "Id" }),
          title: text(60).meta({
            title: "Title",
            ...quoted.among([
              "Exclusive Development Squad",
              "Supervised Endeavors",
              "Technology Talent Acquisition",
              "Marketing for Scalability",
              "Product & Platforms",
              "Startup Venture Studio",
            ]),
          }),
          description: text(300).meta({ title: "Description", widget: "text" }),
          icon: z.enum(deliveryIcons).meta({ title: "Icon", widget: "select" }),
        }),
      )
      .min(1)
      .max(12)
      .meta({ title: "Cards", widget: "list" }),
  }),
});
