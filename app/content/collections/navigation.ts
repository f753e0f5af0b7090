/** The navigation's labels; where each item leads is the site's (app/content/navigation.ts). */
import { z } from "zod";
import { defineCollection } from "./collection";
import { text } from "./fields";
import { quoted } from "./quoted";

const label = (title: string, specified: string) => text(24).meta({ title, ...quoted(specified) });

export const navigationCollection = defineCollection({
  name: "navigation",
  label: "Navigation",
  kind: "file",
  format: "yaml",
  schema: z.object({
    home: label("To the top of the home page", "Home"),
    services: label("To the services", "Services"),
    reviews: label("To the reviews", "Reviews"),
    insights: label("To the core values", "Insights"),
    contact: label("To the form (drawn as a button)", "LET'S TALK"),
  }),
});
