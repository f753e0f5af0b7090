/** The meta tags of a page: title, description, canonical link, Open Graph and Twitter cards. */
import type { MetaDescriptor } from "@remix-run/node";
import { site } from "~/content/site";

export interface PageMeta {
  title: string;
  description: string;
  /** Path of the page, e.g. `/privacy-policy`; joined to SITE_URL for the canonical link. */
  path: string;
  siteUrl: string;
  noIndex?: boolean;
  /** Path of the page's own Open Graph image (`ogImagePathOf`, ~/media/og-path). */
  image: string;
  /** What the Open Graph image shows, for people who cannot see it: the site's name and the page's title unless said. */
  imageAlt?: string;
  /** `article` for an article or case study; `website` otherwise. */
  type?: "website" | "article";
}

/** Title, description, canonical link, Open Graph and Twitter cards for one page. */
export function buildMeta({
  title,
  description,
  path,
  siteUrl,
  noIndex,
  image: imagePath,
  imageAlt = `${site.name}: ${title}`,
  type = "website",
}: PageMeta): MetaDescriptor[] {
  const url = `${siteUrl}${path}`;
  const image = `${siteUrl}${imagePath}`;
  const meta: MetaDescriptor[] = [
    { title },
    { name: "description", content: description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:type", content: type },
    { property: "og:site_name", content: site.name },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:url", content: url },
    { property: "og:image", content: image },
    { property: "og:image:width", content: "1200" },
    { property: "og:image:height", content: "630" },
    { property: "og:image:type", content: "image/png" },
    { property: "og:image:alt", content: imageAlt },
    { property: "og:locale", content: "en_IN" },
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:title", content: title },
    { name: "twitter:description", content: description },
    { name: "twitter:image", content: image },
    { name: "twitter:image:alt", content: imageAlt },
  ];
  if (noIndex) meta.push({ name: "robots", content: "noindex" });
  return meta;
}
