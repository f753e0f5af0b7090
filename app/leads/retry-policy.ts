/** The retry policy: a destination's record after an attempt, when a failed one is tried again, and a lead put back in the queue. */
import { type BackoffLimits, backoffMs } from "~/destinations/backoff";
import type { DeliveryResult } from "~/destinations/destination";
import { DESTINATIONS } from "~/destinations/lookup.server";
import { type DeliveryRecord, type Lead, leadStateOf, newDeliveries } from "~/leads/lead";

export const FIRST_RETRY_MS = 10_000;
export const MAX_RETRY_GAP_MS = 15 * 60_000;
export const RETRY_FOR_MS = 72 * 60 * 60_000;

/**
 * A lead's backoff at one destination: 10 s doubling each time, capped at 15 min, with jitter
 * (between half and all of it) so leads failed together do not retry together.
 */
export const LEAD_BACKOFF: BackoffLimits = { firstMs: FIRST_RETRY_MS, maxMs: MAX_RETRY_GAP_MS, jitter: true };

/**
 * One destination's record after one attempt that ended with `result` at `now`: delivered, failed
 * for good, or due again after the backoff (never sooner than a `Retry-After` asked), failed once
 * 72 h of retries have run out.
 */
export function afterAttempt(
  record: DeliveryRecord,
  result: DeliveryResult,
  now: Date,
  random: () => number = Math.random,
): DeliveryRecord {
  const attempts = record.attempts + 1;
  if (result.ok) return { ...record, state: "sent", attempts, lastError: null };
  const lastError = result.error.cause;
  if (!result.retry) return { ...record, state: "failed", attempts, lastError };
  const next =
    now.getTime() + backoffMs(attempts, LEAD_BACKOFF, { random, retryAfterMs: result.retryAfterMs });
  if (next - Date.parse(record.queuedAt) > RETRY_FOR_MS) {
    return {
      ...record,
      state: "failed",
      attempts,
      lastError: `${lastError} (gave up after 72 h of retries)`,
    };
  }
  return { ...record, attempts, lastError, nextAttemptAt: new Date(next).toISOString() };
}

/**
 * A lead put back in the queue, tried at once with a fresh 72 h of retries: its failed
 * destinations; an `inbox` lead, every destination (the running server drops those it has not
 * configured, so it is filed in the inbox again when it has none).
 */
export function requeue(lead: Lead, now: Date): Lead {
  const at = now.toISOString();
  if (lead.state === "inbox") {
    const destinations = newDeliveries(DESTINATIONS, at);
    return { ...lead, destinations, state: leadStateOf(destinations) };
  }
  const destinations = Object.fromEntries(
    Object.entries(lead.destinations).map(([name, record]) => [
      name,
      record.state === "failed" ? retried(record, now) : record,
    ]),
  );
  return { ...lead, destinations, state: leadStateOf(destinations) };
}

/** A failed delivery put back in the queue: tried at once, with a fresh 72 h of retries. */
export function retried(record: DeliveryRecord, now: Date): DeliveryRecord {
  const at = now.toISOString();
  return { ...record, state: "pending", nextAttemptAt: at, queuedAt: at };
}

/**
 * A quarantined lead released by an operator: it joins the delivery queue like any new lead, due
 * at every destination (the running server drops those it has not configured: those configured
 * at its release remain), and keeps its reason and the time of its release.
 */
export function release(lead: Lead, now: Date): Lead {
  const at = now.toISOString();
  const destinations = newDeliveries(DESTINATIONS, at);
  return { ...lead, destinations, state: leadStateOf(destinations), releasedAt: at };
}
