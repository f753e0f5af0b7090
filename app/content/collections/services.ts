/** The services collection: one YAML file per service the home page's 'Our Services' presents. */
import { z } from "zod";
import { defineCollection } from "./collection";
import { imageField, text } from "./fields";
import { quoted } from "./quoted";

export const servicesCollection = defineCollection({
  name: "services",
  label: "Services",
  labelSingular: "service",
  kind: "folder",
  format: "yaml",
  schema: z.object({
    order: z.number().int().min(1).meta({ title: "Order", description: "Position in the list, from 1" }),
    label: text(60).meta({
      title: "Name",
      ...quoted.among([
        "Website Development",
        "Mobile App Development",
        "SaaS Development",
        "eCommerce Development",
        "Web Application Development",
      ]),
    }),
    summary: text(120).meta({
      title: "Summary",
      description: "One sentence for search engines (the structured data's description of the service)",
    }),
    image: imageField,
    description: text(500).meta({ title: "Description", widget: "text" }),
    includes: z
      .tuple([text(60), text(60), text(60)])
      .meta({ title: "What the client gets", description: "Exactly three items", widget: "list" }),
  }),
});
