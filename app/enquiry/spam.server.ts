/**
 * The spam rules (the hidden-field trap, the block list, the headless rule) and the answer each
 * gives a caught enquiry.
 *
 * Why on the server, with a quarantine: docs/decisions/010-spam-rules-on-the-server.md.
 */
import { isHeadless } from "~/enquiry/headless.server";
import { HONEYPOT_FIELD, WEBDRIVER_FIELD } from "~/enquiry/trap-fields";
import { type BlockList, isBlocked } from "~/lead-parts/block-list.server";
import type { Enquiry } from "~/lead-parts/enquiry";
import type { SpamReason } from "~/lead-parts/spam-reasons";

/** ENQUIRY_BLOCK_LIST and ENQUIRY_BLOCK_HEADLESS, as the server read them. */
export interface SpamRules {
  blockList: BlockList;
  blockHeadless: boolean;
}

/**
 * What each filter answers (the original specification's error catalogue): a bot that filled
 * the hidden field, or posted without the form, gets the success it expects (303); the headless
 * rule 451 'Unavailable For Headless Browser'; the block list 403 'Forbidden'.
 */
export const SPAM_STATUS = {
  honeypot: 303,
  "missing-field": 303,
  headless: 451,
  blocklist: 403,
} as const satisfies Record<SpamReason, number>;

/** The hidden field a person never fills: filled (or sent twice) is `honeypot`, absent is `missing-field`. */
export function trapReason(fields: Map<string, string[]>): SpamReason | null {
  const honeypot = fields.get(HONEYPOT_FIELD);
  if (honeypot === undefined) return "missing-field";
  return honeypot.length === 1 && honeypot[0] === "" ? null : "honeypot";
}

/** The filter an otherwise valid enquiry trips, if any: the honeypot, then the headless rule, then the block list. */
export function spamReason(
  rules: SpamRules,
  request: Request,
  fields: Map<string, string[]>,
  enquiry: Enquiry,
): SpamReason | null {
  const trapped = trapReason(fields);
  if (trapped) return trapped;
  const webdriver = fields.get(WEBDRIVER_FIELD)?.[0] === "1";
  if (rules.blockHeadless && isHeadless(request.headers.get("User-Agent"), webdriver)) return "headless";
  if (isBlocked(rules.blockList, enquiry)) return "blocklist";
  return null;
}
