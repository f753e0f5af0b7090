/** Reads from a posted form which privacy notice its sender was shown, for the lead to keep. */
import { PRIVACY_NOTICE_FIELDS, privacyNoticeHashField } from "./fields";
import type { PrivacyNoticeRecord } from "./record";
import type { PrivacyNoticeRendering } from "./rendering.server";

/**
 * Where the site's renderings are looked up by hash: every server's, every release's
 * (~/enquiry/privacy-notice-renderings.server keeps them).
 */
export interface RenderingsByHash {
  find(sha256: string): Promise<PrivacyNoticeRendering | undefined>;
}

/** The one value of a field posted once; undefined when it is missing or posted more than once. */
function singleValue(fields: Map<string, string[]>, name: string): string | undefined {
  const values = fields.get(name);
  return values?.length === 1 ? values[0] : undefined;
}

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
  renderings: RenderingsByHash,
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
