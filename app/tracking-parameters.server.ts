/**
 * Query parameters that ad platforms, newsletters and social sites append to links for their own
 * analytics. The site never reads them, so they do not change the page: a GET whose query holds
 * only these still gets the shared document (docs/deploying.md, "Campaign links and the cache
 * key", keeps the nginx `map` in step with this list). Names match exactly, lower case, as the platforms write them.
 */
export const TRACKING_PARAMETERS = [
  "gclid", // Google Ads
  "gbraid", // Google Ads, iOS app campaigns
  "wbraid", // Google Ads, iOS web campaigns
  "dclid", // Google Display & Video 360
  "fbclid", // Facebook, Instagram
  "msclkid", // Microsoft (Bing) Ads
  "ttclid", // TikTok
  "twclid", // X (Twitter)
  "li_fat_id", // LinkedIn
  "mc_cid", // Mailchimp campaign
  "mc_eid", // Mailchimp recipient
  "_ga", // Google Analytics cross-domain linker
  "_gl", // Google tag cross-domain linker
  "igshid", // Instagram share
  "ref", // referral links
] as const;

/** Every `utm_*` parameter (Google Analytics campaign tags: source, medium, campaign, term, content, id…). */
export const TRACKING_PREFIX = "utm_";

const exact = new Set<string>(TRACKING_PARAMETERS);

export function isTrackingParameter(name: string): boolean {
  return exact.has(name) || (name.startsWith(TRACKING_PREFIX) && name.length > TRACKING_PREFIX.length);
}

/**
 * Whether a query (`?a=1&b=2`, with or without its `?`) changes nothing for the site: it is
 * empty (`/?` included) or every parameter in it is a tracking parameter, whatever its value.
 */
export function onlyTrackingParameters(search: string): boolean {
  for (const name of new URLSearchParams(search).keys()) {
    if (!isTrackingParameter(name)) return false;
  }
  return true;
}
