import type { MetaFunction } from "@remix-run/node";
import { ContactSection } from "~/components/home/contact-section";
import { HeroSection } from "~/components/home/hero-section";
import { InsightsSection } from "~/components/home/insights-section";
import { ReviewsSection } from "~/components/home/reviews-section";
import { ServicesSection } from "~/components/home/services-section";
import { site } from "~/content/site";
import type { loader as rootLoader } from "~/root";
import { buildMeta } from "~/utils/meta";

/** Same page for every visitor: rendered once, served with a fresh nonce (rule in ~/static-document.server). */
export const handle = { staticDocument: true };

export const meta: MetaFunction<unknown, { root: typeof rootLoader }> = ({ matches }) => {
  const root = matches.find((match) => match.id === "root")?.data;
  return buildMeta({
    title: `${site.name} — Software & Digital Product Agency in India`,
    description: site.description,
    path: "/",
    siteUrl: root?.siteUrl ?? "",
  });
};

export default function HomePage() {
  return (
    <>
      <HeroSection />
      <ServicesSection />
      <ReviewsSection />
      <InsightsSection />
      <ContactSection />
    </>
  );
}
