/** The shape of a privacy notice's text in one language, and the items every language holds. */
/** The items every language's privacy notice holds, in the order the page shows them. */
export const PRIVACY_NOTICE_ITEMS = [
  "collected",
  "purpose",
  "recipients",
  "retention",
  "rights",
  "complaint",
] as const;

export type PrivacyNoticeItem = (typeof PRIVACY_NOTICE_ITEMS)[number];

/** An e-mail the visitor sends to the privacy contact, already written. */
export interface PrivacyNoticeRequest {
  subject: string;
  body: string;
}

/**
 * The privacy notice beside the enquiry form, in one language. Texts may hold the server's
 * configuration as `{retentionDays}` and `{privacyContact}` (its e-mail address), and links
 * written `[label](target)`, where target is `erase` or `correct` (an e-mail to the privacy
 * contact, written below), `withdraw` (the withdrawal page, in the notice's language) or
 * `policy` (the privacy policy).
 */
export interface PrivacyNoticeText {
  /** BCP 47 code, the `lang` of the text and the value the form posts. */
  language: string;
  /** The language's own name for itself, on the switch that shows this text. */
  languageName: string;
  heading: string;
  /** What sending the form means: the consent, and that it can be withdrawn. */
  lead: string;
  items: Record<PrivacyNoticeItem, { label: string; text: string }>;
  /** The line that links to the full privacy policy. */
  policy: string;
  requests: { erase: PrivacyNoticeRequest; correct: PrivacyNoticeRequest };
}

/** What the notice's texts say about the server's configuration (~/content/privacy-facts.server). */
export interface PrivacyNoticeFacts {
  retentionDays: number;
  /** The privacy contact. */
  contact: { email: string };
}
