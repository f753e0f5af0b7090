/**
 * A person as an operator names one in a command (an e-mail address or a phone number), read and
 * matched against leads.
 */
import type { Enquiry } from "~/lead-parts/enquiry";

/** A person as an operator names one: by e-mail address, or by phone number with its country code. */
export type PersonQuery = { kind: "email"; address: string } | { kind: "phone"; digits: string };

/** The longest address SMTP carries (RFC 5321): longer text names no person, and is not read further. */
const MAX_QUERY_LENGTH = 254;
/** One `@` between two runs that cannot hold one: a single way to match, so linear in the text. */
const ADDRESS = /^[^\s@,]+@([^\s@,]+)$/;
/** E.164 allows at most 15 digits; fewer than 6 could not tell one person from many. */
const PHONE = /^\+?([0-9]{6,15})$/;

/**
 * `asha@example.in` (any case) or `919876543210` (`+91 98765-43210` reads the same: spaces,
 * hyphens, dots and brackets are dropped). Null for anything else.
 */
export function parsePersonQuery(text: string): PersonQuery | null {
  const trimmed = text.trim();
  if (trimmed.length > MAX_QUERY_LENGTH) return null;
  if (trimmed.includes("@")) {
    return isAddress(trimmed) ? { kind: "email", address: trimmed.toLowerCase() } : null;
  }
  const phone = PHONE.exec(trimmed.replace(/[\s().-]/g, ""));
  return phone?.[1] ? { kind: "phone", digits: phone[1].replace(/^0+/, "") } : null;
}

/** `local@domain`, the domain with a dot that has a character on each side (`example.in`). */
function isAddress(text: string): boolean {
  const domain = ADDRESS.exec(text)?.[1];
  return domain?.slice(1, -1).includes(".") === true;
}

/**
 * The phone number as one string of digits, country code first. A national trunk zero
 * (`09876543210` in India or the UK) is dropped: it is not part of the international number.
 */
export function phoneDigits(enquiry: Pick<Enquiry, "countryCode" | "phoneNumber">): string {
  return `${enquiry.countryCode.replace(/^0+/, "")}${enquiry.phoneNumber.replace(/^0+/, "")}`;
}

export function isPerson(enquiry: Enquiry, query: PersonQuery): boolean {
  return query.kind === "email"
    ? enquiry.email.trim().toLowerCase() === query.address
    : phoneDigits(enquiry) === query.digits;
}
