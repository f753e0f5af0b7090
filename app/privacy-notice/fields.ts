/**
 * The form fields that say which privacy notice the sender was shown: its version (a hidden
 * field), its language (the radio buttons that switch the notice's language) and, for each
 * language, the SHA-256 of the text the page rendered in it (hidden fields).
 */
export const PRIVACY_NOTICE_FIELDS = {
  version: "privacy_notice_version",
  language: "privacy_notice_language",
} as const;

/** The hidden field holding the SHA-256 of the text the page rendered in `language`: `privacy_notice_sha256_hi`. */
export function privacyNoticeHashField(language: string): string {
  return `privacy_notice_sha256_${language}`;
}
