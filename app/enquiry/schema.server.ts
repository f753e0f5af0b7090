import * as z from "zod";
import { MAX_LENGTH } from "~/enquiry/notices";

/** Field-level hints shown under each invalid field (the form-level notice is fixed). */
export const FIELD_ERRORS = {
  name: `Enter your name (up to ${MAX_LENGTH.name} characters).`,
  email: "Enter a valid e-mail address, such as name@company.com.",
  countryCode: `Enter a country code of up to ${MAX_LENGTH.countryCode} digits.`,
  phoneNumber: `Enter a phone number of up to ${MAX_LENGTH.phoneNumber} digits.`,
  message: `Keep your message to ${MAX_LENGTH.message.toLocaleString("en-IN")} characters or fewer.`,
} as const;

/** Local part, '@', domain, a dot and a top-level part of at least two letters. */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[A-Za-z]{2,}$/;

/**
 * The enquiry as the server accepts it (spec §5). Conform turns empty strings into
 * `undefined` before this runs, so "required" is the absence of a value.
 */
export const enquirySchema = z.object({
  name: z
    .string({ error: FIELD_ERRORS.name })
    .trim()
    .min(1, FIELD_ERRORS.name)
    .max(MAX_LENGTH.name, FIELD_ERRORS.name),
  email: z
    .string({ error: FIELD_ERRORS.email })
    .trim()
    .max(MAX_LENGTH.email, FIELD_ERRORS.email)
    .regex(EMAIL_PATTERN, FIELD_ERRORS.email),
  countryCode: z
    .string({ error: FIELD_ERRORS.countryCode })
    .trim()
    .regex(new RegExp(`^[0-9]{1,${MAX_LENGTH.countryCode}}$`), FIELD_ERRORS.countryCode),
  phoneNumber: z
    .string({ error: FIELD_ERRORS.phoneNumber })
    .trim()
    .regex(new RegExp(`^[0-9]{1,${MAX_LENGTH.phoneNumber}}$`), FIELD_ERRORS.phoneNumber),
  message: z
    .string({ error: FIELD_ERRORS.message })
    .max(MAX_LENGTH.message, FIELD_ERRORS.message)
    .optional()
    .transform((value) => value ?? ""),
});

export type Enquiry = z.output<typeof enquirySchema>;
