/** The privacy notice the page shows: its current version, and its text in every language it is shown in. */
import { privacyNoticeEnglish } from "./en";
import { privacyNoticeHindi } from "./hi";
import type { PrivacyNoticeText } from "./types";

export type { PrivacyNoticeFacts, PrivacyNoticeItem, PrivacyNoticeRequest, PrivacyNoticeText } from "./types";
export { PRIVACY_NOTICE_ITEMS } from "./types";

/**
 * The version of the privacy notice the page shows, in every language: the latest published. A
 * change to any language's text is a new version, which `npm run notice:publish` writes
 * (./published.server; tests/unit/privacy-notice.test.ts fails until it is run).
 */
export { PRIVACY_NOTICE_VERSION } from "./version";

/**
 * The languages the notice is shown in, the first by default: English, and languages of the
 * Eighth Schedule of the Constitution (DPDP Act §5(3)). Another language is one more module.
 */
export const privacyNoticeTexts: readonly [PrivacyNoticeText, ...PrivacyNoticeText[]] = [
  privacyNoticeEnglish,
  privacyNoticeHindi,
];
