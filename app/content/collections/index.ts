/**
 * Every content collection, in one registry: the content build, `npm run check` and the
 * editor's configuration read collections from here and nowhere else.
 */
import { caseStudiesCollection } from "./case-studies";
import { contactCollection } from "./contact";
import { deliveryCollection } from "./delivery";
import { insightsCollection } from "./insights";
import { partnersCollection } from "./partners";
import { servicesCollection } from "./services";
import { valuesCollection } from "./values";

export const collections = {
  services: servicesCollection,
  delivery: deliveryCollection,
  values: valuesCollection,
  partners: partnersCollection,
  contact: contactCollection,
  "case-studies": caseStudiesCollection,
  insights: insightsCollection,
} as const;

export type CollectionName = keyof typeof collections;
