/** The sitemap: the home page and the policy pages, at the site's public origin. */
import { seo } from "~/content/seo";
import { env } from "~/env.server";
import { CACHE_CONTROL } from "~/http/cache-control";
import { secureResponse } from "~/http/security.server";

const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`);

export function loader() {
  const urls = seo.sitemap
    .map(
      (page) =>
        `  <url>\n    <loc>${escapeXml(`${env.SITE_URL}${page.path}`)}</loc>\n    <changefreq>${page.changefreq}</changefreq>\n    <priority>${page.priority}</priority>\n  </url>`,
    )
    .join("\n");
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
  return secureResponse(xml, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": CACHE_CONTROL.hour },
  });
}
