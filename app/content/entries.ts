/**
 * What the content build makes of each collection: the types of the generated modules in
 * app/content/generated/ (written by `npm run build:content` from content/, never edited).
 */
import type { z } from "zod";
import type { ResponsiveImage } from "~/media/responsive-image";
import type { caseStudiesCollection } from "./collections/case-studies";
import type { contactCollection } from "./collections/contact";
import type { deliveryCollection } from "./collections/delivery";
import type { enquiryFormCollection } from "./collections/enquiry-form";
import type { footerCollection } from "./collections/footer";
import type { homeCollection } from "./collections/home";
import type { insightsCollection } from "./collections/insights";
import type { navigationCollection } from "./collections/navigation";
import type { pagesCollection } from "./collections/pages";
import type { partnersCollection } from "./collections/partners";
import type { policyNames, termsCollection } from "./collections/policies";
import type { servicesCollection } from "./collections/services";
import type { valuesCollection } from "./collections/values";
import type { withdrawalCollection } from "./collections/withdrawal";

/**
 * An image named in a content file, as the build found it: URL, alt text, intrinsic size. A
 * raster image (JPEG, PNG, WebP, AVIF) also carries the widths and formats the build made of it
 * (`src` is then its largest fallback); an SVG has none: it is served as it is.
 */
export interface ContentImageData {
  src: string;
  alt: string;
  width: number;
  height: number;
  responsive?: ResponsiveImage;
}

/**
 * The images the content names, by their path in the content files (`images/photo.jpg`), as the
 * build made them (their alt text is each use's own, so empty here): /admin's previews look them up.
 */
export type BuiltImages = Readonly<Record<string, ContentImageData>>;

type Fields<Collection extends { schema: z.ZodObject }> = z.output<Collection["schema"]>;
type Image = ContentImageData;

export type ServiceEntry = Omit<Fields<typeof servicesCollection>, "image"> & { id: string; image: Image };
export type DeliveryCardEntry = Fields<typeof deliveryCollection>["cards"][number];
export type CoreValueEntry = Fields<typeof valuesCollection>["values"][number];
export type PartnerEntry = Omit<Fields<typeof partnersCollection>["partners"][number], "logo"> & {
  logo: Image;
};
export type ContactEntry = Fields<typeof contactCollection>;
export type HomeEntry = Fields<typeof homeCollection>;
export type NavigationEntry = Fields<typeof navigationCollection>;
export type FooterEntry = Fields<typeof footerCollection>;
export type EnquiryFormEntry = Fields<typeof enquiryFormCollection>;
export type PagesEntry = Fields<typeof pagesCollection>;
export type WithdrawalEntry = Fields<typeof withdrawalCollection>;

export type PolicyName = (typeof policyNames)[number];

/**
 * A policy as the build made it: its front matter, and its text as HTML in which the server fills
 * the placeholders (~/content/policies/placeholders).
 */
export type PolicyText = Omit<Fields<typeof termsCollection>, "body"> & {
  /** The text before the first section. */
  intro: string;
  sections: { heading: string; html: string }[];
};

/** Search and link-preview overrides of a page, with its image measured. */
export interface SeoOverrides {
  title?: string;
  description?: string;
  image?: Image;
}

/** What every content page carries beside its own fields. */
interface PageEntry {
  slug: string;
  /** The body, as HTML made at build time. */
  html: string;
  seo: SeoOverrides;
}

export type CaseStudy = Omit<Fields<typeof caseStudiesCollection>, "body" | "cover" | "images" | "seo"> &
  PageEntry & { cover: Image; images: Image[] };

export type Insight = Omit<Fields<typeof insightsCollection>, "body" | "cover" | "seo"> &
  PageEntry & {
    cover?: Image;
    words: number;
    /** Minutes at 200 words a minute, at least 1. */
    readingMinutes: number;
  };
