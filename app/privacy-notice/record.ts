/**
 * Which privacy notice an enquiry's sender was shown: its version, its language, and the
 * SHA-256 (hex) of its canonical text as the page rendered it, so that the record can be
 * matched to the words (the record of renderings keeps the text behind each hash,
 * ~/enquiry/privacy-notice-renderings.server). A lead
 * carries it when the server knew what the form said it showed; leads from before it have none.
 */
export interface PrivacyNoticeRecord {
  version: string;
  language: string;
  sha256: string;
}

const SHA256_HEX = /^[0-9a-f]{64}$/;
/** A version (`2026-11-26`) or a language (`hi`): short, plain, nothing a log or a mail must escape. */
const LABEL = /^[0-9A-Za-z-]{1,32}$/;

/** The record a stored value holds, or undefined when it is not one the site writes (the lead itself is still read). */
export function parsePrivacyNoticeRecord(value: unknown): PrivacyNoticeRecord | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { version, language, sha256 } = value as Record<string, unknown>;
  if (typeof version !== "string" || !LABEL.test(version)) return undefined;
  if (typeof language !== "string" || !LABEL.test(language)) return undefined;
  if (typeof sha256 !== "string" || !SHA256_HEX.test(sha256)) return undefined;
  return { version, language, sha256 };
}

/**
 * The record in one short line, as the enquiry's log line and the mail's `notice_version` name it:
 * `2026-11-26 hi`; empty when the sender's privacy notice is not known.
 */
export function describePrivacyNotice(record: PrivacyNoticeRecord | undefined): string {
  return record ? `${record.version} ${record.language}` : "";
}
