/** /insights/feed.xml: the published articles as an Atom feed, newest first. */
import { footer } from "~/content/generated/footer.server";
import { fillWords, pageWords } from "~/content/page-words";
import { lastModified, publishedInsights } from "~/content/pages.server";
import { env } from "~/env.server";
import { CACHE_CONTROL } from "~/http/cache-control";
import { secureResponse } from "~/http/security.server";
import { escapeXml } from "~/utils/xml";

export function loader() {
  const origin = env.SITE_URL;
  const articles = publishedInsights();
  const updated = articles.map(lastModified).sort().at(-1) ?? "2026-01-01";
  const entries = articles
    .map(
      (article) => `  <entry>
    <title>${escapeXml(article.title)}</title>
    <link rel="alternate" type="text/html" href="${escapeXml(`${origin}/insights/${article.slug}`)}"/>
    <id>${escapeXml(`${origin}/insights/${article.slug}`)}</id>
    <published>${article.date}T00:00:00Z</published>
    <updated>${lastModified(article)}T00:00:00Z</updated>
    <author><name>${escapeXml(article.author)}</name></author>
    <summary>${escapeXml(article.description)}</summary>
    <content type="html" xml:lang="${article.lang}">${escapeXml(article.html)}</content>
  </entry>`,
    )
    .join("\n");
  const xml = `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en">
  <title>${escapeXml(fillWords(pageWords.insights.feedTitle))}</title>
  <subtitle>${escapeXml(footer.tagline)}</subtitle>
  <link rel="self" type="application/atom+xml" href="${escapeXml(`${origin}/insights/feed.xml`)}"/>
  <link rel="alternate" type="text/html" href="${escapeXml(`${origin}/insights`)}"/>
  <id>${escapeXml(`${origin}/insights`)}</id>
  <updated>${updated}T00:00:00Z</updated>
${entries}
</feed>
`;
  return secureResponse(xml, {
    headers: { "Content-Type": "application/atom+xml; charset=utf-8", "Cache-Control": CACHE_CONTROL.hour },
  });
}
