/** The retry policy: which send results are final, and when a failed send is tried again. */
import type { Lead, LeadState } from "~/leads/lead";
import type { SendResult } from "~/mail/types";

export const FIRST_RETRY_MS = 10_000;
export const MAX_RETRY_GAP_MS = 15 * 60_000;
export const RETRY_FOR_MS = 72 * 60 * 60_000;

/** EmailJS answers that no retry can fix: bad request, wrong ids or key, API disabled. */
const PERMANENT_STATUSES = new Set([400, 401, 403, 404, 412, 422]);

export type Verdict = "sent" | "retry" | "permanent";

/** Timeouts, network errors, 5xx, 429 and anything unexpected are worth another try. */
export function classify(result: SendResult): Verdict {
  if (result.ok) return "sent";
  if (result.reason === "rejected" && result.status !== undefined && PERMANENT_STATUSES.has(result.status)) {
    return "permanent";
  }
  return "retry";
}

/**
 * The wait after the `attempts`-th failed attempt: 10 s doubling each time, capped at 15 min,
 * with jitter (between half and all of it) so leads failed together do not retry together.
 */
export function retryDelayMs(attempts: number, random: () => number = Math.random): number {
  const full = Math.min(MAX_RETRY_GAP_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1));
  return Math.round(full * (0.5 + random() / 2));
}

/** The lead after one delivery attempt that ended with `result` at `now`. */
export function afterAttempt(
  lead: Lead,
  result: SendResult,
  now: Date,
  random: () => number = Math.random,
): Lead {
  const attempts = lead.attempts + 1;
  const verdict = classify(result);
  if (verdict === "sent") return { ...lead, state: "sent", attempts, lastError: null };
  const lastError = result.ok ? null : result.detail;
  if (verdict === "permanent") return { ...lead, state: "failed", attempts, lastError };
  const next = now.getTime() + retryDelayMs(attempts, random);
  if (next - Date.parse(lead.queuedAt) > RETRY_FOR_MS) {
    return { ...lead, state: "failed", attempts, lastError: `${lastError} (gave up after 72 h of retries)` };
  }
  return { ...lead, attempts, lastError, nextAttemptAt: new Date(next).toISOString() };
}

/** A failed (or inbox) lead put back in the queue, tried at once, with a fresh 72 h of retries. */
export function requeue(lead: Lead, now: Date): Lead {
  const at = now.toISOString();
  return { ...lead, state: "pending", nextAttemptAt: at, queuedAt: at };
}

/**
 * A quarantined lead released by an operator: it joins the delivery queue (`inbox` when no
 * EmailJS is configured) like any new lead, and keeps its reason and the time of its release.
 */
export function release(lead: Lead, now: Date, state: Extract<LeadState, "pending" | "inbox">): Lead {
  const at = now.toISOString();
  return { ...lead, state, attempts: 0, lastError: null, nextAttemptAt: at, queuedAt: at, releasedAt: at };
}
