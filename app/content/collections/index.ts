/**
 * Every content collection, in one registry: the content build, `npm run check` and the
 * editor's configuration read collections from here and nowhere else.
 */
import { caseStudiesCollection } from "./case-studies";
import { contactCollection } from "./contact";
import { deliveryCollection } from "./delivery";
import { enquiryFormCollection } from "./enquiry-form";
import { footerCollection } from "./footer";
import { homeCollection } from "./home";
import { insightsCollection } from "./insights";
import { navigationCollection } from "./navigation";
import { pagesCollection } from "./pages";
import { partnersCollection } from "./partners";
import { cookiePolicyCollection, privacyPolicyCollection, termsCollection } from "./policies";
import { servicesCollection } from "./services";
import { valuesCollection } from "./values";
import { withdrawalCollection } from "./withdrawal";

export const collections = {
  home: homeCollection,
  navigation: navigationCollection,
  services: servicesCollection,
  delivery: deliveryCollection,
  values: valuesCollection,
  partners: partnersCollection,
  contact: contactCollection,
  "enquiry-form": enquiryFormCollection,
  footer: footerCollection,
  "case-studies": caseStudiesCollection,
  insights: insightsCollection,
  pages: pagesCollection,
  "terms-conditions": termsCollection,
  "privacy-policy": privacyPolicyCollection,
  "cookie-policy": cookiePolicyCollection,
  withdrawal: withdrawalCollection,
} as const;

export type CollectionName = keyof typeof collections;
