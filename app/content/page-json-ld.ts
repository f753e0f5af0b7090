/** schema.org structured data of the content pages: BreadcrumbList, BlogPosting and CreativeWork. */
import type { CaseStudy, Insight } from "./entries";
import { site } from "./site";

/** One step of a page's breadcrumb trail. */
export interface Crumb {
  name: string;
  path: string;
}

export function breadcrumbJsonLd(siteUrl: string, trail: readonly Crumb[]) {
  return {
    "@context": "https://schema.org",
    "@type": "BreadcrumbList",
    itemListElement: trail.map((crumb, index) => ({
      "@type": "ListItem",
      position: index + 1,
      name: crumb.name,
      item: `${siteUrl}${crumb.path}`,
    })),
  };
}

const publisher = (siteUrl: string) => ({
  "@type": "Organization",
  "@id": `${siteUrl}/#organization`,
  name: site.name,
});

export function blogPostingJsonLd(siteUrl: string, article: Insight, image: string) {
  return {
    "@context": "https://schema.org",
    "@type": "BlogPosting",
    headline: article.title,
    description: article.description,
    inLanguage: article.lang,
    author: { "@type": "Person", name: article.author },
    datePublished: article.date,
    dateModified: article.updated ?? article.date,
    wordCount: article.words,
    image: `${siteUrl}${image}`,
    mainEntityOfPage: `${siteUrl}/insights/${article.slug}`,
    publisher: publisher(siteUrl),
  };
}

export function creativeWorkJsonLd(siteUrl: string, study: CaseStudy, image: string) {
  return {
    "@context": "https://schema.org",
    "@type": "CreativeWork",
    name: study.title,
    abstract: study.summary,
    about: study.sector,
    datePublished: study.date,
    dateModified: study.updated ?? study.date,
    image: `${siteUrl}${image}`,
    url: `${siteUrl}/case-studies/${study.slug}`,
    creator: publisher(siteUrl),
    sourceOrganization: { "@type": "Organization", name: study.client },
  };
}
