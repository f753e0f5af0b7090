/** The home page: its sections, its meta tags, and the enquiry form's loader and action. */
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { EnquiryForm } from "~/components/enquiry-form";
import { ContactSection } from "~/components/home/contact-section";
import { HeroSection } from "~/components/home/hero-section";
import { HomeContentProvider } from "~/components/home/home-content";
import { InsightsSection } from "~/components/home/insights-section.server";
import { ReviewsSection } from "~/components/home/reviews-section";
import { ServicesSection } from "~/components/home/services-section";
import { ServerRendered } from "~/components/server-rendered";
import { homeContent } from "~/content/home.server";
import { handleEnquiry, loadEnquiry } from "~/enquiry/action.server";
import { keepDataWhenTokenLeaves, useDropNoticeToken } from "~/enquiry/notice-token-url";
import { useRevealOnScroll } from "~/hooks/use-reveal-on-scroll";
import { HydratedApart } from "~/hydration/hydrated-apart";
import { ogImagePathOf } from "~/media/og-path";
import type { RootMatch } from "~/root-data";
import { buildMeta } from "~/utils/meta";

/**
 * Same page for every visitor, campaign links and cookies included: rendered once, the same
 * bytes for all (rule in ~/shared-documents/document-cache.server). A sender's landing URL
 * (`?enquiry=`) is rendered for them alone.
 */
export const handle = { sharedDocument: true };

export const meta: MetaFunction<typeof loader, RootMatch> = ({ data, matches }) => {
  const root = matches.find((match) => match.id === "root")?.data;
  if (!data) return [];
  const { title, description, imageAlt } = data.content.meta;
  return buildMeta({
    title,
    description,
    imageAlt,
    path: "/",
    siteUrl: root?.siteUrl ?? "",
    image: ogImagePathOf("home", "index"),
  });
};

/** A refused enquiry says when to try again, on the document as on the data response. */
export const headers: HeadersFunction = ({ actionHeaders }) => {
  const headers = new Headers();
  const retryAfter = actionHeaders.get("Retry-After");
  if (retryAfter) headers.set("Retry-After", retryAfter);
  return headers;
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  return { content: homeContent, enquiry: await loadEnquiry(request, context) };
}

export const shouldRevalidate = keepDataWhenTokenLeaves;

export async function action({ request, context }: ActionFunctionArgs) {
  return handleEnquiry(request, context);
}

export default function HomePage() {
  const { content, enquiry } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  useRevealOnScroll();
  useDropNoticeToken();
  // Each section below the hero is hydrated and committed apart, after the header and the hero.
  return (
    <HomeContentProvider value={content}>
      <HeroSection />
      <HydratedApart>
        <ServicesSection />
      </HydratedApart>
      <HydratedApart>
        <ReviewsSection />
      </HydratedApart>
      <ServerRendered id="core-values" render={InsightsSection} />
      <HydratedApart>
        <ContactSection>
          <EnquiryForm notice={actionData?.notice ?? enquiry.notice} lastResult={actionData?.result} />
        </ContactSection>
      </HydratedApart>
    </HomeContentProvider>
  );
}
