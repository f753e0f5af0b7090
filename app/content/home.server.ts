import { contactIntro } from "./contact";
import { deliveryCards, deliveryIntro } from "./delivery";
import { hero } from "./hero";
import { partnerLogoSize, partners, partnersIntro } from "./partners";
import { services, servicesIntro } from "./services";
import { coreValues, valuesIntro } from "./values";
import { featuredWork, reviewsHeading } from "./work";

/**
 * Everything the home page says, gathered for its loader. The page gets its copy as loader
 * data, so the words travel once in the HTML (where gzip folds them into the rendered text)
 * instead of again in the JavaScript bundle.
 */
export const homeContent = {
  hero,
  servicesIntro,
  services,
  deliveryIntro,
  deliveryCards,
  reviewsHeading,
  featuredWork,
  partnersIntro,
  partnerLogoSize,
  partners,
  valuesIntro,
  coreValues,
  contactIntro,
};

export type HomeContent = typeof homeContent;
