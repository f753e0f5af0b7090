/**
 * Every Cache-Control value the site sends, by what the response is (docs/deploying.md, "A
 * caching proxy or CDN in front", has the table).
 */
export const CACHE_CONTROL = {
  /**
   * Shared documents. Browsers revalidate on every visit (a 304 costs a round trip and no body)
   * so a deploy shows at once; a CDN or proxy serves its copy for 5 minutes without asking, so
   * the origin sees at most one request per page, coding and cache node in that time. After
   * that the cache may answer once more with the old copy while it fetches the new one
   * (stale-while-revalidate: a visitor never waits for the origin), and it may serve the last
   * good copy for a day while the origin is down (stale-if-error). no-transform: a proxy that
   * rewrites the HTML would break the script hashes in its CSP, and the server's compression
   * must leave the stored codings alone.
   */
  shared: "public, max-age=0, s-maxage=300, stale-while-revalidate=86400, stale-if-error=86400, no-transform",
  /** Small public files that may change with a deploy: robots.txt, the sitemap, the web manifest. */
  hour: "public, max-age=3600",
  /** A document or data response for one visitor: a browser may keep it but must revalidate. */
  private: "private, no-cache",
  /** A sender's landing URL (the enquiry notice's token, ~/enquiry/sent-notice.server), and the redirect to it: never stored. */
  personal: "private, no-store",
  /**
   * A redirect whose request and Location hold no query (a page's other spelling, a former
   * slug): the same for everyone, and it changes only with a deploy.
   */
  redirect: "public, max-age=3600",
  /** Answers that must never be stored at all: health, beacons, refusals. */
  never: "no-store",
} as const;

/**
 * A redirect's Cache-Control: shared only when neither its request nor its Location holds a
 * query; with one (a click id, a campaign, a token) `private, no-store`, so no cache hands one
 * visitor's query to another.
 */
export function redirectCacheControl(requestTarget: string, location: string): string {
  const hasQuery = (url: string) => /\?./.test(url.split("#", 1)[0] ?? "");
  return hasQuery(requestTarget) || hasQuery(location) ? CACHE_CONTROL.personal : CACHE_CONTROL.redirect;
}
