/** Reads from a posted form which privacy notice its sender was shown, for the lead to keep. */
import { createHash } from "node:crypto";
import { privacyFacts } from "~/content/privacy-notice/facts.server";
import { publishedPrivacyNotice } from "~/content/privacy-notice/published";
import { singleValue } from "~/enquiry/body.server";
import type { PrivacyNoticeRecord } from "~/lead-parts/privacy-notice";
import { PRIVACY_NOTICE_FIELDS } from "~/privacy-notice/fields";
import { fillPrivacyNotice, type PrivacyNoticeFacts } from "~/privacy-notice/text";

/** The SHA-256 (hex) a privacy notice record holds of the text as rendered. */
export function privacyNoticeSha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/**
 * The privacy notice the form says it showed, when the server knows that version in that
 * language; otherwise nothing. Never a reason to refuse an enquiry: a page left open across a
 * deploy posts an older version, which is still known, and a form from elsewhere posts none.
 */
export function readPrivacyNotice(
  fields: Map<string, string[]>,
  facts: PrivacyNoticeFacts = privacyFacts,
): PrivacyNoticeRecord | undefined {
  const version = singleValue(fields, PRIVACY_NOTICE_FIELDS.version);
  const language = singleValue(fields, PRIVACY_NOTICE_FIELDS.language);
  if (version === undefined || language === undefined) return undefined;
  const text = publishedPrivacyNotice(version, language);
  if (text === undefined) return undefined;
  return { version, language, sha256: privacyNoticeSha256(fillPrivacyNotice(text, facts)) };
}
