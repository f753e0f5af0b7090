import { ENQUIRY_FIELDS, type Enquiry } from "~/enquiry/fields";
import { clickIdOf, describeSource, type LeadSource } from "~/leads/source";

export type SendResult =
  | { ok: true }
  | {
      ok: false;
      /** `misconfigured` is the operator's problem; the others are the provider's. */
      reason: "timeout" | "rejected" | "misconfigured";
      detail: string;
      /** The HTTP status EmailJS answered with (0: no answer, a network error), when it answered. */
      status?: number;
    };

export interface MailTransport {
  readonly name: "emailjs" | "none";
  /** Never throws: every failure comes back as `{ ok: false }`. */
  send(enquiry: Enquiry, source?: LeadSource): Promise<SendResult>;
}

/**
 * The EmailJS template parameters: the enquiry's fields, `to_name` and `from_name` (docs/decisions.md §2),
 * and where the lead came from: `source` (`google / cpc / spring-launch`, `linkedin.com (referral)`,
 * `direct`) and `click_id` (`gclid=…`, or empty).
 */
export type TemplateParams = Enquiry & {
  to_name: string;
  from_name: string;
  source: string;
  click_id: string;
};

export function toTemplateParams(enquiry: Enquiry, recipient: string, source?: LeadSource): TemplateParams {
  const fields = Object.fromEntries(ENQUIRY_FIELDS.map((field) => [field, enquiry[field]])) as Enquiry;
  return {
    to_name: recipient,
    ...fields,
    from_name: enquiry.name,
    source: describeSource(source),
    click_id: clickIdOf(source),
  };
}

export function describeCause(cause: unknown): string {
  if (cause instanceof Error) return `${cause.name}: ${cause.message}`;
  if (typeof cause === "string") return cause;
  return "unknown cause";
}

export function logMailFailure(transport: MailTransport["name"], result: SendResult): void {
  if (result.ok) return;
  console.error(JSON.stringify({ event: "mail", transport, outcome: result.reason, cause: result.detail }));
}
