/**
 * Turns a privacy notice's canonical text into what the page shows: configuration filled in, links
 * marked, blocks and plain text.
 */
import { PRIVACY_NOTICE_ITEMS, type PrivacyNoticeFacts, type PrivacyNoticeText } from "~/privacy-notice";

export type { PrivacyNoticeFacts };

export type PrivacyNoticeLinkTarget = "erase" | "correct" | "withdraw" | "policy";

/** A run of text, or a link. */
export type PrivacyNoticeSegment = string | { label: string; target: PrivacyNoticeLinkTarget };

/** The notice as the page shows it, block by block. */
export interface PrivacyNoticeBlocks {
  heading: string;
  lead: PrivacyNoticeSegment[];
  items: { key: string; label: string; text: PrivacyNoticeSegment[] }[];
  policy: PrivacyNoticeSegment[];
}

const PLACEHOLDER = /\{(retentionDays|privacyContact)\}/g;
const LINK = /\[([^\]]+)\]\((erase|correct|withdraw|policy)\)/g;

/** `text` with `{retentionDays}` and `{privacyContact}` replaced by the configuration's values. */
export function fillPrivacyNotice(text: string, facts: PrivacyNoticeFacts): string {
  return text.replace(PLACEHOLDER, (_, name: string) =>
    name === "retentionDays" ? String(facts.retentionDays) : facts.contact.email,
  );
}

function segments(text: string, facts: PrivacyNoticeFacts | undefined): PrivacyNoticeSegment[] {
  const filled = facts ? fillPrivacyNotice(text, facts) : text;
  const result: PrivacyNoticeSegment[] = [];
  let last = 0;
  for (const match of filled.matchAll(LINK)) {
    const [whole, label = "", target] = match;
    if (match.index > last) result.push(filled.slice(last, match.index));
    result.push({ label, target: target as PrivacyNoticeLinkTarget });
    last = match.index + whole.length;
  }
  if (last < filled.length) result.push(filled.slice(last));
  return result;
}

/** The notice's blocks, filled in with `facts`; without them, its template (placeholders kept). */
export function privacyNoticeBlocks(
  text: PrivacyNoticeText,
  facts?: PrivacyNoticeFacts,
): PrivacyNoticeBlocks {
  return {
    heading: text.heading,
    lead: segments(text.lead, facts),
    items: PRIVACY_NOTICE_ITEMS.map((key) => ({
      key,
      label: text.items[key].label,
      text: segments(text.items[key].text, facts),
    })),
    policy: segments(text.policy, facts),
  };
}

const plain = (parts: PrivacyNoticeSegment[]) =>
  parts.map((part) => (typeof part === "string" ? part : part.label)).join("");

/**
 * The notice's canonical text, what its SHA-256 is taken of: the words the page shows, one
 * block a line (heading, lead, `label: text` for each item, the policy line), links as their
 * labels. The language switch and the links' addresses are not part of it.
 */
export function privacyNoticePlainText(blocks: PrivacyNoticeBlocks): string {
  return [
    blocks.heading,
    plain(blocks.lead),
    ...blocks.items.map((item) => `${item.label}: ${plain(item.text)}`),
    plain(blocks.policy),
  ].join("\n");
}

/** The notice's canonical text with the configuration still `{retentionDays}` and `{privacyContact}`: what is published. */
export function privacyNoticeTemplate(text: PrivacyNoticeText): string {
  return privacyNoticePlainText(privacyNoticeBlocks(text));
}
