/**
 * The privacy notice as a server renders it with its configuration: in each language, the blocks
 * the page shows and their canonical text, with its version and SHA-256 (a rendering).
 */
import { createHash } from "node:crypto";
import { PRIVACY_NOTICE_VERSION, type PrivacyNoticeText, privacyNoticeTexts } from "~/privacy-notice";
import {
  type PrivacyNoticeBlocks,
  type PrivacyNoticeFacts,
  privacyNoticeBlocks,
  privacyNoticePlainText,
} from "./text";

/**
 * One text the page showed: the version, the language, the canonical text (./text) as filled
 * with the server's configuration, and its SHA-256 (hex), which the page posts and a lead keeps.
 */
export interface PrivacyNoticeRendering {
  version: string;
  language: string;
  text: string;
  sha256: string;
}

/** The SHA-256 (hex) of a privacy notice's canonical text. */
export function privacyNoticeSha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** The current version's notice in one language, filled with `facts`: the blocks the page shows, and the rendering they make. */
export function renderPrivacyNotice(
  text: PrivacyNoticeText,
  facts: PrivacyNoticeFacts,
): { blocks: PrivacyNoticeBlocks; rendering: PrivacyNoticeRendering } {
  const blocks = privacyNoticeBlocks(text, facts);
  const plain = privacyNoticePlainText(blocks);
  return {
    blocks,
    rendering: {
      version: PRIVACY_NOTICE_VERSION,
      language: text.language,
      text: plain,
      sha256: privacyNoticeSha256(plain),
    },
  };
}

/** What a server configured with `facts` renders: the current version, in every language. */
export function privacyNoticeRenderings(facts: PrivacyNoticeFacts): PrivacyNoticeRendering[] {
  return privacyNoticeTexts.map((text) => renderPrivacyNotice(text, facts).rendering);
}
