/**
 * What /admin's preview shows for each collection: one row per collection, naming the page's own
 * components the entry is given to and how the document is laid out. A collection gets a preview
 * by getting a row here (docs/content-editing.md, "Previews").
 */
import type { ReactElement } from "react";
import type { z } from "zod";
import { CaseStudyArticle } from "~/components/case-study-article";
import { ContactIntro } from "~/components/home/contact-intro.server";
import { DeliveryValues } from "~/components/home/delivery-values.server";
import { HomeContentProvider } from "~/components/home/home-content";
import { InsightsSection } from "~/components/home/insights-section.server";
import { ReviewsSection } from "~/components/home/reviews-section";
import { ServicesShowcase } from "~/components/home/services-showcase";
import { InsightArticle, type NeighbourLink } from "~/components/insight-article";
import { PolicyPage } from "~/components/policy-page";
import { FooterColumns } from "~/components/site-footer-columns.server";
import { type CollectionName, collections } from "~/content/collections/index";
import type { Insight, PolicyName } from "~/content/entries";
import { homeContent } from "~/content/home.server";
import { articleEntryOf, pageEntryOf } from "~/content/page-entries";
import { publishedInsights } from "~/content/pages.server";
import type { Partner } from "~/content/partners";
import { policyOfText } from "~/content/policies/index.server";
import { policyParts } from "~/content/policies/parts";
import type { Policy } from "~/content/policies/types";
import type { Service } from "~/content/services";
import type { PreviewEntry } from "./entry.server";

/** How one collection's entry is previewed. */
export interface PreviewRow<Data> {
  /** The page's components, given the entry. */
  render: (entry: PreviewEntry<Data>) => ReactElement;
  /** Whether the page shows with its script (the home page's sections), as ./document.server lays it out. */
  scripted: boolean;
  /** Whether the entry is in Hindi, so the document adds the Devanagari font. */
  hindi?: (entry: PreviewEntry<Data>) => boolean;
}

type Output<Name extends CollectionName> = z.output<(typeof collections)[Name]["schema"]>;

/** A row for `Name`, typed by its collection's schema. */
const row = <Name extends CollectionName>(_name: Name, preview: PreviewRow<Output<Name>>) => preview;

/** A home-page section given the home page's copy, with `changes` in place of the content's. */
const onHomePage = (changes: Partial<typeof homeContent>, section: ReactElement) => (
  <HomeContentProvider value={{ ...homeContent, ...changes }}>{section}</HomeContentProvider>
);

/** The published articles either side of `entry` by date, as its page links them. */
function neighboursOf(entry: PreviewEntry<Output<"insights">>): {
  newer?: NeighbourLink;
  older?: NeighbourLink;
} {
  const others = publishedInsights().filter((article) => article.slug !== entry.slug);
  const link = (article: Insight | undefined) =>
    article && { slug: article.slug, title: article.title, lang: article.lang };
  const newer = others.filter((article) => article.date > entry.data.date).at(-1);
  const older = others.find((article) => article.date <= entry.data.date);
  return { newer: link(newer), older: link(older) };
}

/**
 * A policy's row, for a collection whose entries are policies: `policyOf` makes its entry the
 * `Policy` the policy pages show, and the preview is the policy page itself.
 */
export function policyRow<Data>(policyOf: (entry: PreviewEntry<Data>) => Policy): PreviewRow<Data> {
  return { scripted: false, render: (entry) => <PolicyPage policy={policyOf(entry)} /> };
}

/** A policy collection's row: the entry's front matter and its HTML in parts, filled in as its page is. */
const policyPreview = <Name extends PolicyName>(name: Name) =>
  policyRow<Output<Name>>(({ data, html }) =>
    policyOfText(name, {
      title: data.title,
      summary: data.summary,
      updated: data.updated,
      ...policyParts(html),
    }),
  );

export const previewRows: { readonly [Name in CollectionName]?: PreviewRow<Output<Name>> } = {
  "terms-conditions": policyPreview("terms-conditions"),
  "privacy-policy": policyPreview("privacy-policy"),
  "cookie-policy": policyPreview("cookie-policy"),
  "case-studies": row("case-studies", {
    scripted: false,
    render: (entry) => <CaseStudyArticle study={pageEntryOf(entry.slug, entry.data, entry.html)} />,
  }),
  insights: row("insights", {
    scripted: false,
    hindi: (entry) => entry.data.lang === "hi",
    render: (entry) => (
      <InsightArticle
        article={articleEntryOf(entry.slug, entry.data, entry.html, entry.words)}
        {...neighboursOf(entry)}
      />
    ),
  }),
  services: row("services", {
    scripted: true,
    render: ({ slug, data }) => {
      const service: Service = {
        id: slug || "preview",
        label: data.label,
        image: data.image.src,
        imageAlt: data.image.alt,
        ...(data.image.responsive ? { imageSet: data.image.responsive } : {}),
        description: data.description,
        includes: data.includes,
      };
      return onHomePage(
        { services: [service] },
        <div className="mx-auto max-w-7xl px-6 py-20">
          <ServicesShowcase services={[service]} />
        </div>,
      );
    },
  }),
  delivery: row("delivery", { scripted: true, render: ({ data }) => <DeliveryValues cards={data.cards} /> }),
  values: row("values", { scripted: true, render: ({ data }) => <InsightsSection values={data.values} /> }),
  partners: row("partners", {
    scripted: true,
    render: ({ data }) => {
      const partners: Partner[] = data.partners.map(({ id, name, logo }) => ({
        id,
        name,
        url: logo.src,
        ...(logo.responsive ? { logoSet: logo.responsive } : {}),
      }));
      return onHomePage({ partners }, <ReviewsSection />);
    },
  }),
  contact: row("contact", {
    scripted: true,
    // The contact section's introduction and the footer's columns, the two places that show them.
    render: ({ data }) => (
      <>
        <section aria-labelledby="contact-heading" className="py-20 lg:py-28">
          <div className="mx-auto grid max-w-7xl gap-10 px-6">
            <ContactIntro contact={data} />
          </div>
        </section>
        <footer className="bg-secondary text-white">
          <FooterColumns contact={data} />
        </footer>
      </>
    ),
  }),
};

/** The collections that have a preview, by name, for /admin's page to register. */
export const previewedCollections = Object.keys(previewRows).filter((name) => name in collections);
