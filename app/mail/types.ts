/** What a mail transport is, and what EmailJS can answer a send (judged by app/destinations/emailjs.server.ts). */
import type { Enquiry } from "~/lead-parts/enquiry";
import type { LeadSource } from "~/lead-parts/source";
import type { PrivacyNoticeRecord } from "~/privacy-notice/record";

/**
 * What EmailJS (or its library) answered one send, before the destination's rules judge it into
 * a delivery result (~/destinations/emailjs.server).
 */
export type EmailJsAnswer =
  | { ok: true }
  | {
      ok: false;
      /** `misconfigured` is the operator's problem; the others are the provider's. */
      reason: "timeout" | "rejected" | "misconfigured";
      /**
       * Why, in the site's own words (`EmailJS answered 412: the mail account must be
       * reconnected in EmailJS`): what alerts, `lead.failed` events and a lead's last error carry.
       */
      detail: string;
      /** What the provider said, redacted (~/mail/redact): for the log line only. */
      said?: string;
      /** The HTTP status EmailJS answered with (0: no answer, a network error), when it answered. */
      status?: number;
    };

export interface MailTransport {
  readonly name: "emailjs" | "none";
  /** Never throws: every failure comes back as `{ ok: false }`. */
  /** `reference`: the enquiry's reference (~/lead-parts/reference), the template's `reference`. */
  send(
    enquiry: Enquiry,
    source?: LeadSource,
    privacyNotice?: PrivacyNoticeRecord,
    reference?: string,
  ): Promise<EmailJsAnswer>;
}
