/**
 * One JSON line per enquiry outcome. Never pass what the visitor typed (name, e-mail,
 * phone, message): logs are not a place for personal data.
 */
export interface EnquiryLogLine {
  outcome:
    | "stored"
    | "spooled"
    | "sent"
    | "failed"
    | "unavailable"
    | "invalid"
    | "bad-request"
    | "too-large"
    | "rate-limited"
    | "throttled"
    | "quarantined"
    | "spam"
    | "duplicate";
  /** Where an enquiry sent directly went (`emailjs`, `webhook`, `emailjs+webhook`). */
  transport?: string;
  ms: number;
  reason?: string;
  /** The privacy notice the sender was shown, as `version language` (~/privacy-notice/record). */
  privacyNotice?: string;
}

export function logEnquiry(line: EnquiryLogLine): void {
  console.log(JSON.stringify({ event: "enquiry", ...line }));
}
