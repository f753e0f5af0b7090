/**
 * A visit's campaign as the campaign counts keep it, read in the browser from the landing's
 * address and referrer. Plain code only: it ships in the reporters' chunk and beside the taps.
 */
import { CLICK_IDS } from "~/lead-parts/click-ids";

/** The landing's campaign tags, the kind of ad click, and the referring site's host; null where there is none. */
export interface CampaignFields {
  source: string | null;
  medium: string | null;
  campaign: string | null;
  /** The first ad-click id's name (`gclid`), never its value. */
  click: string | null;
  /** The referring site's host name, never its path. */
  host: string | null;
}

/** The most characters (code points) a tag keeps. */
export const MAX_TAG_LENGTH = 100;

/**
 * The campaign of the page loaded from `url`, reached from `referrer` (empty when none): a
 * referrer of this site's own origin names no host.
 */
export function campaignFieldsOf(url: string, referrer: string): CampaignFields {
  const { searchParams, origin } = new URL(url);
  const tag = (name: string) =>
    Array.from(searchParams.get(name) ?? "")
      .slice(0, MAX_TAG_LENGTH)
      .join("") || null;
  let host: string | null = null;
  try {
    const from = new URL(referrer);
    if (from.origin !== origin) host = from.hostname || null;
  } catch {
    // No referrer, or none a URL can read.
  }
  return {
    source: tag("utm_source"),
    medium: tag("utm_medium"),
    campaign: tag("utm_campaign"),
    click: CLICK_IDS.find((name) => searchParams.has(name)) ?? null,
    host,
  };
}
