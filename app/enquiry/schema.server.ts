/** The enquiry as the server accepts it (a zod schema), and the hint each invalid field shows. */
import * as z from "zod";
import { enquiryForm } from "~/content/generated/enquiry-form.server";
import { type Enquiry, type EnquiryField, MAX_LENGTH } from "~/lead-parts/enquiry";
import {
  hasInvisibleInALine,
  hasInvisibleInAnAddress,
  hasStrayTags,
  joinersFit,
} from "~/text/invisible-characters";

const { hints } = enquiryForm;

/** The hint of a field, with its limit where it says `{max}` (content/enquiry-form.yml). */
const hintOf = (field: EnquiryField) =>
  hints[field].replaceAll("{max}", MAX_LENGTH[field].toLocaleString("en-IN"));

/** Field-level hints shown under each invalid field (the form-level notice is the same for all). */
export const FIELD_ERRORS: Record<EnquiryField, string> = {
  name: hintOf("name"),
  email: hintOf("email"),
  countryCode: hintOf("countryCode"),
  phoneNumber: hintOf("phoneNumber"),
  message: hintOf("message"),
};

/** Shown when a field holds a character no one types on purpose (a line break in a name, a bidi override). */
export const UNUSUAL_CHARACTERS = {
  singleLine: hints.lineBreak,
  message: hints.controlCharacters,
  /** Unicode tag characters outside a flag, or a zero-width joiner with nothing to join. */
  hidden: hints.hiddenCharacters,
  /** An e-mail address with an invisible character (a soft hyphen, a joiner) that would read like another. */
  address: hints.addressCharacter,
} as const;

/**
 * Tag characters only inside an emoji flag (England, Scotland, Wales); ZWJ and ZWNJ only
 * between letters, marks and emoji, as scripts (Hindi, Marathi र्‍, Malayalam) and emoji (🏳️‍🌈)
 * use them; never alone, first or last.
 */
const noHiddenText = (value: string) => !hasStrayTags(value) && joinersFit(value.trim());

/**
 * Characters that can break a mail header, a log line or the way text reads: C0 and C1
 * controls and DEL (\p{Cc}, which includes U+0085), the line and paragraph separators, the
 * bidirectional marks, embeddings, overrides and isolates, the byte-order mark and the
 * interlinear annotation controls. Zero-width (non-)joiners stay: Indic names need them.
 */
const UNUSUAL =
  "\\p{Cc}\\u061C\\u200E\\u200F\\u2028\\u2029\\u202A-\\u202E\\u2066-\\u2069\\uFEFF\\uFFF9-\\uFFFB";
const SINGLE_LINE = new RegExp(`^[^${UNUSUAL}]*$`, "u");
/** The message keeps its line breaks ("\n": the body reader normalises CR LF), nothing else. */
const MULTI_LINE = new RegExp(`^(?:\\n|[^${UNUSUAL}])*$`, "u");

/**
 * Local part, '@', domain, a dot and a top-level part of at least two letters; no spaces, and
 * none of the characters that quote or separate addresses in a header (`<>",;:()[]\`).
 */
export const EMAIL_PATTERN = /^[^\s@<>",;:()[\]\\]+@[^\s@<>",;:()[\]\\]+\.[A-Za-z]{2,}$/;

/** Single-line fields also refuse invisible format and filler characters (U+200B, U+3164…). */
const singleLine = (hint: string) =>
  z
    .string({ error: hint })
    .refine((value) => SINGLE_LINE.test(value) && !hasInvisibleInALine(value), UNUSUAL_CHARACTERS.singleLine)
    .refine(noHiddenText, UNUSUAL_CHARACTERS.hidden)
    .trim();

/**
 * The enquiry as the server accepts it (the original specification's rules). Conform turns empty
 * strings into `undefined` before this runs, so "required" is the absence of a value.
 */
export const enquirySchema = z.object({
  name: singleLine(FIELD_ERRORS.name).min(1, FIELD_ERRORS.name).max(MAX_LENGTH.name, FIELD_ERRORS.name),
  email: singleLine(FIELD_ERRORS.email)
    .refine((value) => !hasInvisibleInAnAddress(value), UNUSUAL_CHARACTERS.address)
    .max(MAX_LENGTH.email, FIELD_ERRORS.email)
    .regex(EMAIL_PATTERN, FIELD_ERRORS.email),
  countryCode: singleLine(FIELD_ERRORS.countryCode).regex(
    new RegExp(`^[0-9]{1,${MAX_LENGTH.countryCode}}$`),
    FIELD_ERRORS.countryCode,
  ),
  phoneNumber: singleLine(FIELD_ERRORS.phoneNumber).regex(
    new RegExp(`^[0-9]{1,${MAX_LENGTH.phoneNumber}}$`),
    FIELD_ERRORS.phoneNumber,
  ),
  message: z
    .string({ error: FIELD_ERRORS.message })
    .max(MAX_LENGTH.message, FIELD_ERRORS.message)
    .regex(MULTI_LINE, UNUSUAL_CHARACTERS.message)
    .refine(noHiddenText, UNUSUAL_CHARACTERS.hidden)
    .optional()
    .transform((value) => value ?? ""),
}) satisfies z.ZodType<Enquiry, unknown>;
