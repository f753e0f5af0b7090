/**
 * The form fields that catch bots, never part of the enquiry kept: the honeypot and the
 * enhanced form's webdriver signal (~/enquiry/spam.server reads both).
 */

/** Hidden from people, filled in by bots. */
export const HONEYPOT_FIELD = "company_website";

/** Set to "1" by the enhanced form when `navigator.webdriver` is true (ENQUIRY_BLOCK_HEADLESS). */
export const WEBDRIVER_FIELD = "webdriver";
