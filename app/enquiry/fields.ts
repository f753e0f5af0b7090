/**
 * The enquiry's fields, in form order: the one list the form, the action, the lead store and
 * the EmailJS template parameters are made from (docs/decisions/002-operating-contract.md
 * names them).
 */
export const ENQUIRY_FIELDS = ["name", "email", "countryCode", "phoneNumber", "message"] as const;

export type EnquiryField = (typeof ENQUIRY_FIELDS)[number];

/** An enquiry as the site accepts, keeps and sends it (validated by ~/enquiry/schema.server). */
export type Enquiry = Record<EnquiryField, string>;

/** Hidden from people, filled in by bots. */
export const HONEYPOT_FIELD = "company_website";

/** Set to "1" by the enhanced form when `navigator.webdriver` is true (ENQUIRY_BLOCK_HEADLESS). */
export const WEBDRIVER_FIELD = "webdriver";

export const MAX_LENGTH = {
  name: 40,
  email: 40,
  countryCode: 3,
  phoneNumber: 12,
  message: 1500,
} as const satisfies Record<EnquiryField, number>;
