/**
 * ENQUIRY_BLOCK_LIST read into addresses, phone numbers and domains, and whether an enquiry's
 * sender is on it.
 */
import type { Enquiry } from "~/lead-parts/enquiry";
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
    const domain = DOMAIN.exec(entry.normalize("NFKC").toLowerCase());
    const person = domain ? null : parsePersonQuery(entry);
    if (domain?.[1]) list.domains.push(domain[1]);
    else if (person?.kind === "email")
      list.people.push({ kind: "email", address: comparableAddress(person.address) });
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

/**
 * An address as the block list compares it: fullwidth and compatibility forms folded (NFKC,
 * `ｅxample` reads `example`), lower case, and without a `+tag` in the local part (`spam+x@`
 * is `spam@`), so a look-alike of a listed address is that address.
 */
export function comparableAddress(address: string): string {
  const folded = address.normalize("NFKC").trim().toLowerCase();
  const at = folded.lastIndexOf("@");
  if (at < 0) return folded;
  return `${folded.slice(0, at).replace(/\+.*$/, "")}${folded.slice(at)}`;
}

export function isBlocked(list: BlockList, enquiry: Enquiry): boolean {
  const email = comparableAddress(enquiry.email);
  const folded = { ...enquiry, email };
  if (list.people.some((person) => isPerson(folded, person))) return true;
  const domain = email.slice(email.lastIndexOf("@") + 1);
  return list.domains.some((blocked) => domain === blocked || domain.endsWith(`.${blocked}`));
}
