import type { Enquiry } from "~/enquiry/fields";
import { isPerson, type PersonQuery, parsePersonQuery } from "./person";

/** ENQUIRY_BLOCK_LIST, read: whole addresses and phone numbers, and domains (with their sub-domains). */
export interface BlockList {
  people: PersonQuery[];
  domains: string[];
}

export const EMPTY_BLOCK_LIST: BlockList = { people: [], domains: [] };

const DOMAIN = /^@((?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9-]{2,})$/;

/**
 * Comma-separated entries: `asha@example.in`, `@example.in` (and every sub-domain of it) or a
 * phone number in digits with its country code (`919876543210`). Empty entries are ignored.
 * The error names the entry by position, never by its text (an address is personal data, and
 * the error goes to the log).
 */
export function parseBlockList(text: string): { ok: true; list: BlockList } | { ok: false; error: string } {
  const entries = text.split(",").map((entry) => entry.trim());
  const list: BlockList = { people: [], domains: [] };
  for (const [index, entry] of entries.entries()) {
    if (entry === "") continue;
    const domain = DOMAIN.exec(entry.toLowerCase());
    const person = domain ? null : parsePersonQuery(entry);
    if (domain?.[1]) list.domains.push(domain[1]);
    else if (person) list.people.push(person);
    else {
      return {
        ok: false,
        error: `entry ${index + 1} of ${entries.length} is not an e-mail address, an @domain or a phone number in digits with its country code`,
      };
    }
  }
  return { ok: true, list };
}

export function isBlocked(list: BlockList, enquiry: Enquiry): boolean {
  if (list.people.some((person) => isPerson(enquiry, person))) return true;
  const domain = enquiry.email.slice(enquiry.email.lastIndexOf("@") + 1).toLowerCase();
  return list.domains.some((blocked) => domain === blocked || domain.endsWith(`.${blocked}`));
}
