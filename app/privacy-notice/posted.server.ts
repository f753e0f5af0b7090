/** Reads from a posted form which privacy notice its sender was shown, for the lead to keep. */
import { singleValue } from "~/enquiry/body.server";
import type { PrivacyNoticeRenderings } from "~/enquiry/privacy-notice-renderings.server";
import type { PrivacyNoticeRecord } from "~/lead-parts/privacy-notice";
import { PRIVACY_NOTICE_FIELDS, privacyNoticeHashField } from "~/privacy-notice/fields";

/** A language as a form may post it: what the hash field's name is made of. */
const LANGUAGE = /^[0-9A-Za-z-]{1,32}$/;

/**
 * The privacy notice the form says it showed: the version and language posted, and the SHA-256
 * the page posted of the text it rendered in that language, when that hash is of a text this
 * site rendered, in that version and language (`renderings`: every server's, every release's).
 * Otherwise nothing: a missing, unknown or forged hash, or one that belongs to another version
 * or language. Never a reason to refuse an enquiry (docs/decisions/022-privacy-notice.md).
 */
export async function readPrivacyNotice(
  fields: Map<string, string[]>,
  renderings: Pick<PrivacyNoticeRenderings, "find">,
): Promise<PrivacyNoticeRecord | undefined> {
  const version = singleValue(fields, PRIVACY_NOTICE_FIELDS.version);
  const language = singleValue(fields, PRIVACY_NOTICE_FIELDS.language);
  if (version === undefined || language === undefined || !LANGUAGE.test(language)) return undefined;
  const sha256 = singleValue(fields, privacyNoticeHashField(language));
  if (sha256 === undefined) return undefined;
  const rendering = await renderings.find(sha256);
  if (rendering?.version !== version || rendering.language !== language) return undefined;
  return { version, language, sha256 };
}

/**
 * The language the form posted for its privacy notice, to go back with the form's values when
 * the page is rendered again for a refused enquiry (the notice then shows it checked).
 */
export function postedPrivacyNoticeLanguage(fields: Map<string, string[]>): string | undefined {
  const language = singleValue(fields, PRIVACY_NOTICE_FIELDS.language);
  return language !== undefined && LANGUAGE.test(language) ? language : undefined;
}
