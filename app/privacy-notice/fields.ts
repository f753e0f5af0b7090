/**
 * The form fields that say which privacy notice the sender was shown: its version (a hidden
 * field) and its language (the radio buttons that switch the notice's language).
 */
export const PRIVACY_NOTICE_FIELDS = {
  version: "privacy_notice_version",
  language: "privacy_notice_language",
} as const;
