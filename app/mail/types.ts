/** What a mail transport is, and what a send can come to. */
import type { Enquiry } from "~/lead-parts/enquiry";
import type { PrivacyNoticeRecord } from "~/lead-parts/privacy-notice";
import type { LeadSource } from "~/lead-parts/source";

export type SendResult =
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
  ): Promise<SendResult>;
}
