/** The hero's copy: headline, rotating words, introduction, calls to action and highlights. */
/** The hero: the first thing a visitor reads. */
export interface HeroContent {
  /** The headline up to the rotating word. */
  headline: string;
  /** Rotating words; the first is the one shown without JavaScript. */
  words: readonly [string, ...string[]];
  introduction: string;
  primaryAction: { label: string; href: string };
  secondaryAction: { label: string; srSuffix: string; href: string };
  highlights: readonly { value: string; label: string }[];
  illustrationAlt: string;
}

export const hero: HeroContent = {
  headline: "Pioneering Purposeful Digital Products to Elevate Your",
  words: ["Business", "Startup", "Brand"],
  introduction:
    "We design, build and grow software for ambitious businesses and startups — from the first sketch to the thousandth release.",
  primaryAction: { label: "Start now", href: "#contact" },
  secondaryAction: { label: "Learn more", srSuffix: " about our services", href: "#services" },
  highlights: [
    { value: "120+", label: "products shipped" },
    { value: "2016", label: "shipping since" },
    { value: "4.9/5", label: "client rating" },
  ],
  illustrationAlt:
    "Illustration: a browser window and a phone showing a product dashboard, with a rising growth chart and a rocket lifting off.",
};
