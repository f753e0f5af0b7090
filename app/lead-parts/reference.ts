/**
 * An enquiry's reference (`NRM-7KQ2-M9XD`): derived from its lead's id, read back from what a
 * person types, and matched against leads. Why: docs/decisions/039-enquiry-reference.md.
 */

/**
 * Crockford's base 32: digits and capitals without I, L, O and U, so nothing reads as another
 * character (0/O, 1/I/L) and no word is spelt by accident.
 */
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const PREFIX = "NRM";
/** Eight characters of five bits: the first 40 bits of the lead's id (its first ten hex digits). */
const LENGTH = 8;
const HEX_DIGITS = (LENGTH * 5) / 4;

/** A reference as the site writes it: `NRM-` and two groups of four. */
export const REFERENCE = /^NRM-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/;

/** What a person may type for a character: Crockford's reading of the look-alikes. */
const READS_AS: Record<string, string> = { O: "0", I: "1", L: "1" };

const format = (code: string) => `${PREFIX}-${code.slice(0, 4)}-${code.slice(4)}`;

/**
 * The reference of the lead `id` (a UUID): its first 40 bits in Crockford's base 32. The same id
 * always gives the same reference, so every lead has one, whichever release stored it.
 */
export function leadReference(id: string): string {
  const hex = id.replaceAll("-", "").slice(0, HEX_DIGITS);
  let value = BigInt(`0x${hex.padEnd(HEX_DIGITS, "0")}`);
  let code = "";
  for (let index = 0; index < LENGTH; index += 1) {
    code = ALPHABET[Number(value & 31n)] + code;
    value >>= 5n;
  }
  return format(code);
}

/** A reference of the same shape for an enquiry that was kept nowhere: from a random id. */
export function randomReference(): string {
  return leadReference(crypto.randomUUID());
}

/**
 * The reference a person typed, as the site writes it (`nrm 7kq2 m9xd`, `NRM7KQ2M9XD` and
 * `7KQ2-M9XD` all read as `NRM-7KQ2-M9XD`; `O`, `I` and `L` as `0`, `1` and `1`); null for
 * anything that is no reference.
 */
export function parseReference(text: string): string | null {
  let code = text.toUpperCase().replace(/[\s-]/g, "");
  if (code.length === PREFIX.length + LENGTH && code.startsWith(PREFIX)) code = code.slice(PREFIX.length);
  if (code.length !== LENGTH) return null;
  code = [...code].map((character) => READS_AS[character] ?? character).join("");
  return [...code].every((character) => ALPHABET.includes(character)) ? format(code) : null;
}

/**
 * The ids whose reference is `reference` (as parseReference gives it): the lowest and the highest
 * UUID that begin with its 40 bits, so a store finds them by its index on the id.
 */
export function referenceIdRange(reference: string): { lowest: string; highest: string } {
  let value = 0n;
  for (const character of reference.slice(PREFIX.length + 1).replace("-", "")) {
    value = (value << 5n) | BigInt(ALPHABET.indexOf(character));
  }
  const hex = value.toString(16).padStart(HEX_DIGITS, "0");
  const uuid = (rest: string) => {
    const digits = hex + rest.repeat(32 - HEX_DIGITS);
    return `${digits.slice(0, 8)}-${digits.slice(8, 12)}-${digits.slice(12, 16)}-${digits.slice(16, 20)}-${digits.slice(20)}`;
  };
  return { lowest: uuid("0"), highest: uuid("f") };
}

/** Whether the lead of id `id` has the reference `reference` (as parseReference gives it). */
export const hasReference = (id: string, reference: string): boolean => leadReference(id) === reference;

/** The leads whose reference is `reference` (as parseReference gives it): more than one makes it ambiguous. */
export function leadsWithReference<T extends { id: string }>(leads: Iterable<T>, reference: string): T[] {
  return [...leads].filter((lead) => hasReference(lead.id, reference));
}
