/** The count events the site makes: a landing, a WhatsApp tap, a lead stored (an enquiry, or one quarantined). */
import { type CountEvent, dayIn } from "~/campaigns/counts";
import { type CampaignFields, MAX_TAG_LENGTH } from "~/lead-parts/campaign-fields";
import { CLICK_IDS } from "~/lead-parts/click-ids";
import type { Lead } from "~/leads/lead";
import { routeOf } from "~/vitals/metrics";

/** Control and bidirectional-control characters: never kept in a tag. */
const UNPRINTABLE = /[\p{Cc}\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;
const HOST = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/;

/** A tag as counts keep it: printable, trimmed, at most MAX_TAG_LENGTH code points; null when nothing is left. */
export function cleanTag(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const text = Array.from(value.replace(UNPRINTABLE, "").trim()).slice(0, MAX_TAG_LENGTH).join("").trim();
  return text === "" ? null : text;
}

/** What counts keep of a campaign: clean tags, a known click kind, a host name (lower case) or null. */
export function cleanCampaign(fields: Partial<Record<keyof CampaignFields, unknown>>): CampaignFields {
  const host = typeof fields.host === "string" ? fields.host.toLowerCase() : "";
  const click = CLICK_IDS.find((name) => name === fields.click) ?? null;
  return {
    source: cleanTag(fields.source),
    medium: cleanTag(fields.medium),
    campaign: cleanTag(fields.campaign),
    click,
    host: HOST.test(host) ? host : null,
  };
}

/** The count of a lead the store has just kept: an enquiry, or a quarantined one, on its landing page and campaign. */
export function leadEvent(lead: Lead, timeZone: string): CountEvent {
  const source = lead.source;
  const parameters = source?.parameters ?? {};
  const landing = source?.landing;
  return {
    day: dayIn(new Date(lead.receivedAt), timeZone),
    route: landing === undefined ? null : routeOf(landing),
    ...cleanCampaign({
      source: parameters.utm_source,
      medium: parameters.utm_medium,
      campaign: parameters.utm_campaign,
      click: CLICK_IDS.find((name) => parameters[name] !== undefined),
      host: source?.referrer === undefined ? undefined : new URL(source.referrer).hostname,
    }),
    counter: lead.state === "spam" ? "spam" : "enquiries",
  };
}
