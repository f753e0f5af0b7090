/**
 * Why a lead is quarantined: the hidden field was filled (`honeypot`) or not posted at all
 * (`missing-field`), or ENQUIRY_BLOCK_LIST or ENQUIRY_BLOCK_HEADLESS refused it.
 */
export const SPAM_REASONS = ["honeypot", "missing-field", "blocklist", "headless"] as const;
export type SpamReason = (typeof SPAM_REASONS)[number];
