/** Where a lead is delivered: EmailJS (a mail to the agency) and the agency's own webhook. */
export const DESTINATIONS = ["emailjs", "webhook"] as const;
export type DestinationName = (typeof DESTINATIONS)[number];

/** Why an attempt failed, short enough for a log line, an alert or `npm run leads`. */
export interface DeliveryError {
  /** The HTTP status the receiver answered with; absent when it never answered. */
  status?: number;
  /**
   * One short line in the site's words (`HTTP 503`, `connection refused (ECONNREFUSED)`,
   * `EmailJS answered 412: the mail account must be reconnected in EmailJS`), never a
   * receiver's body nor EmailJS's text: alerts and `lead.failed` events carry it.
   */
  cause: string;
}

/**
 * One delivery attempt's outcome. `retry`: worth another try (the retry policy decides when);
 * `retryAfterMs`: the receiver asked to wait that long first (`Retry-After`, already capped).
 */
export type DeliveryResult =
  | { ok: true }
  | { ok: false; retry: boolean; retryAfterMs?: number; error: DeliveryError };

/**
 * A stored last error (`EmailJS answered 412: …`, `HTTP 503`, `connection refused (…)`) as a
 * DeliveryError: the status it names, if any, and the line itself.
 */
export function deliveryErrorOf(lastError: string | null): DeliveryError {
  const cause = lastError ?? "unknown";
  const status = /^(?:EmailJS answered|HTTP) (\d{3})\b/.exec(cause)?.[1];
  return status === undefined ? { cause } : { status: Number(status), cause };
}
