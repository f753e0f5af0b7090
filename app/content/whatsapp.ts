/**
 * WhatsApp click-to-chat: the link's address (`https://wa.me/<number>?text=<message>`) and the
 * campaign a message may name; its words and greeting are the contact details'
 * (content/contact.yml). Why a plain link: docs/decisions/039-enquiry-reference.md.
 */
import { site } from "~/content/site";
import { firstCharacters } from "~/text/first-characters";

/** WhatsApp's form of a number: digits only, country code first (no leading zero), 8 to 15 digits. */
export const WHATSAPP_NUMBER = /^[1-9][0-9]{7,14}$/;

/** The most characters (code points, as the beacon's `u` pattern counts them) of a campaign's name a message carries. */
export const MAX_CAMPAIGN_LENGTH = 40;

/** The link to chat with `number` over `text`, or null when there is no number in WhatsApp's form. */
export function chatHref(number: string | undefined, text: string): string | null {
  if (number === undefined || !WHATSAPP_NUMBER.test(number)) return null;
  return `https://wa.me/${number}?text=${encodeURIComponent(text)}`;
}

/** The site's link, with the greeting; null when the site has no WhatsApp number. */
export function whatsAppHref(): string | null {
  return site.whatsapp ? chatHref(site.whatsapp.number, site.whatsapp.greeting) : null;
}

/**
 * A campaign's name as a message may carry it: letters (with their marks, as Devanagari's
 * vowel signs), digits, spaces, `-` and `_` only (the
 * rest dropped, runs of spaces made one), at most 40 characters (code points, so a pair such as
 * `𝐀` is kept whole or left out); null when nothing is left.
 */
export function campaignWords(value: string | null | undefined): string | null {
  const cleaned = (value ?? "")
    .replace(/[^\p{L}\p{M}\p{N} _-]/gu, "")
    .replace(/ +/g, " ")
    .trim();
  const words = firstCharacters(cleaned, MAX_CAMPAIGN_LENGTH).trim();
  return words === "" ? null : words;
}

/** The campaign a landing's query names: its `utm_campaign`, else its `utm_source`, as campaignWords makes it. */
export function campaignOf(search: string): string | null {
  const query = new URLSearchParams(search);
  return campaignWords(query.get("utm_campaign")) ?? campaignWords(query.get("utm_source"));
}
