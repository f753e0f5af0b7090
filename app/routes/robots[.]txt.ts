/** robots.txt: every crawler welcome, and where the sitemap is. */
import { env } from "~/env.server";
import { CACHE_CONTROL } from "~/http/cache-control";
import { secureResponse } from "~/http/security.server";

export function loader() {
  const text = `User-agent: *\nAllow: /\n\nSitemap: ${env.SITE_URL}/sitemap.xml\n`;
  return secureResponse(text, {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": CACHE_CONTROL.hour },
  });
}
