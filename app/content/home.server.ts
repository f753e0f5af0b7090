/** The home page's copy for its loader, gathered from the content modules. */
import { hero } from "./hero";
import { partnerLogoSize, partners, partnersIntro } from "./partners";
import { services, servicesIntro } from "./services";
import { reviewsHeading } from "./work";

/**
 * The home page's copy that interactive components render, gathered for its loader (static
 * sections render on the server only and import their own). The page gets its copy as loader
 * data, so the words travel once in the HTML (where gzip folds them into the rendered text)
 * instead of again in the JavaScript bundle.
 */
export const homeContent = {
  hero,
  servicesIntro,
  services,
  reviewsHeading,
  partnersIntro,
  partnerLogoSize,
  partners,
};

export type HomeContent = typeof homeContent;
