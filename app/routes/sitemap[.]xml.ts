/** The sitemap: the home page, the policy pages, and every published case study and article with its lastmod. */

import { lastModified, publishedCaseStudies, publishedInsights } from "~/content/pages.server";
import { seo } from "~/content/seo";
import { env } from "~/env.server";
import { CACHE_CONTROL } from "~/http/cache-control";
import { secureResponse } from "~/http/security.server";
import { escapeXml } from "~/utils/xml";

interface SitemapUrl {
  path: string;
  changefreq: string;
  priority: string;
  lastmod?: string;
}

export function loader() {
  const insights = publishedInsights();
  const studies = publishedCaseStudies();
  const newest = (dates: string[]) => dates.sort().at(-1);
  const pages: SitemapUrl[] = [
    ...seo.sitemap,
    {
      path: "/case-studies",
      changefreq: "monthly",
      priority: "0.7",
      lastmod: newest(studies.map(lastModified)),
    },
    ...studies.map((study) => ({
      path: `/case-studies/${study.slug}`,
      changefreq: "yearly",
      priority: "0.6",
      lastmod: lastModified(study),
    })),
    { path: "/insights", changefreq: "weekly", priority: "0.7", lastmod: newest(insights.map(lastModified)) },
    ...insights.map((article) => ({
      path: `/insights/${article.slug}`,
      changefreq: "yearly",
      priority: "0.6",
      lastmod: lastModified(article),
    })),
  ];
  const urls = pages
    .map(
      (page) =>
        `  <url>\n    <loc>${escapeXml(`${env.SITE_URL}${page.path}`)}</loc>\n${page.lastmod ? `    <lastmod>${page.lastmod}</lastmod>\n` : ""}    <changefreq>${page.changefreq}</changefreq>\n    <priority>${page.priority}</priority>\n  </url>`,
    )
    .join("\n");
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
  return secureResponse(xml, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": CACHE_CONTROL.hour },
  });
}
