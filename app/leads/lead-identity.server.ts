/**
 * An enquiry's lead id, fixed before its first write: derived from the enquiry's content, the
 * double-submit window it arrives in and the secret every server shares, so two replicas that
 * take the same enquiry during an outage give it one id. Why: docs/decisions/045-one-identity-per-enquiry.md.
 */
import { createHmac, randomBytes } from "node:crypto";
import { ENQUIRY_FIELDS, type Enquiry } from "~/lead-parts/enquiry";

/**
 * How long a repeated enquiry is the same one: a double click, a page resubmitted or a retry after
 * a lost answer. The windows are fixed (aligned to the epoch), so every server agrees on them.
 */
export const SAME_ENQUIRY_MS = 30 * 60 * 1000;

/** How many ids an enquiry may take in one window: a new one after each erasure of the one before. */
export const MAX_GENERATIONS = 8;

export interface LeadIdentity {
  /**
   * The id of `enquiry` within `scope` (`kept`, or the filter that caught it), received at `at`
   * (ms): a UUID (version 8, RFC 9562's layout for ids made by the application). `generation`
   * counts the erasures of earlier ids of the same enquiry in its window (0 for the first).
   */
  idFor(scope: string, enquiry: Enquiry, at: number, generation?: number): string;
}

/**
 * The identity keyed by `secret` (NOTICE_SECRET): without it, a random key of this process, so
 * only this server gives a repeated enquiry its id (the NOTICE_SECRET log line says so). The key
 * is derived for this use alone: an id tells nothing of the notice tokens signed with the secret.
 */
export function createLeadIdentity(secret: string | undefined): LeadIdentity {
  const key = createHmac("sha256", secret ?? randomBytes(32))
    .update("lead-identity.v1")
    .digest();
  return {
    idFor(scope, enquiry, at, generation = 0) {
      const window = Math.floor(at / SAME_ENQUIRY_MS);
      const digest = createHmac("sha256", key)
        .update(JSON.stringify([scope, window, generation, ...ENQUIRY_FIELDS.map((field) => enquiry[field])]))
        .digest();
      digest[6] = ((digest[6] ?? 0) & 0x0f) | 0x80;
      digest[8] = ((digest[8] ?? 0) & 0x3f) | 0x80;
      const hex = digest.subarray(0, 16).toString("hex");
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    },
  };
}
