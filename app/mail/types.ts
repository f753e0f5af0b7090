/** An enquiry as it leaves the site, already validated. */
export interface EnquiryMessage {
  name: string;
  email: string;
  countryCode: string;
  phoneNumber: string;
  message: string;
}

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
  send(enquiry: EnquiryMessage): Promise<SendResult>;
}

/** The EmailJS template parameters, exactly these seven keys (spec §3). */
export interface TemplateParams extends Record<string, string> {
  to_name: string;
  name: string;
  email: string;
  countryCode: string;
  phoneNumber: string;
  message: string;
  from_name: string;
}

export function toTemplateParams(enquiry: EnquiryMessage, recipient: string): TemplateParams {
  return {
    to_name: recipient,
    name: enquiry.name,
    email: enquiry.email,
    countryCode: enquiry.countryCode,
    phoneNumber: enquiry.phoneNumber,
    message: enquiry.message,
    from_name: enquiry.name,
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
