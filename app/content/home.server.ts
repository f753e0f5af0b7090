/** The home page's copy for its loader, gathered from the content modules. */
import { site } from "~/content/site";
import { enquiryForm } from "./generated/enquiry-form.server";
import { footer } from "./generated/footer.server";
import { home } from "./generated/home.server";
import { partnerLogoSize, partners } from "./partners";
import { services } from "./services";

/**
 * The home page's copy that its meta and interactive components render, gathered for its loader
 * (static sections render on the server only and read content/home.yml themselves). The page gets
 * its copy as loader data, so the words travel once in the HTML (where gzip folds them into the
 * rendered text) instead of again in the JavaScript bundle.
 */
export const homeContent = {
  meta: {
    title: home.title,
    description: home.description,
    // The page's Open Graph image shows the footer's tagline (scripts/media/write-media.ts).
    imageAlt: `${site.name}: ${footer.tagline}`,
  },
  // The rest of the hero renders on the server only (~/components/home/hero-parts.server).
  hero: {
    headline: home.hero.headline,
    words: home.hero.words,
    pause: home.hero.pause,
    play: home.hero.play,
  },
  // The sections' openings render on the server only (~/components/home/section-intros.server).
  servicesIntro: { explore: home.services.explore },
  services,
  partnersIntro: {
    carouselLabel: home.partners.carouselLabel,
    pause: home.partners.pause,
    play: home.partners.play,
  },
  partnerLogoSize,
  partners,
  form: {
    labels: enquiryForm.labels,
    optional: enquiryForm.optional,
    submit: enquiryForm.submit,
  },
};

export type HomeContent = typeof homeContent;
