/**
 * The enquiry's fields, in form order: the one list the form, the action, the lead store and
 * the EmailJS template parameters are made from (docs/decisions/002-operating-contract.md
 * names them).
 */
export const ENQUIRY_FIELDS = ["name", "email", "countryCode", "phoneNumber", "message"] as const;

export type EnquiryField = (typeof ENQUIRY_FIELDS)[number];

/** An enquiry as the site accepts, keeps and sends it (validated by ~/enquiry/schema.server). */
export type Enquiry = Record<EnquiryField, string>;

export const MAX_LENGTH = {
  name: 40,
  email: 40,
  countryCode: 3,
  phoneNumber: 12,
  message: 1500,
} as const satisfies Record<EnquiryField, number>;
