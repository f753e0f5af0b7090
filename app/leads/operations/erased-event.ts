// `npm run leads -- erase`: tells a destination that hears of erasures (the webhook: `lead.erased`,
// its id only) that a lead it received was erased, so the CRM can erase its copy too.
import { type BackoffLimits, backoffMs } from "~/destinations/backoff";
import type { DeliveryError, DestinationLink } from "~/destinations/destination";

/** Attempts within the command: the operator waits for them, so a few, seconds apart. */
export const ERASED_EVENT_ATTEMPTS = 3;
/** The wait before the second attempt, doubled before each next one, or what `Retry-After` asks: at most 5 s. */
const ERASED_EVENT_BACKOFF: BackoffLimits = { firstMs: 1_000, maxMs: 5_000, maxRetryAfterMs: 5_000 };

export type ErasedEventOutcome =
  | { took: true; attempts: number }
  | { took: false; attempts: number; error: DeliveryError };

/**
 * Tells a destination lead `leadId` was erased (its `tellErased`: the webhook posts `lead.erased`,
 * signed afresh at each attempt with the same id and body), tried again with the backoff while its
 * answer is worth another try (a 5xx, 408, 429, no answer), at most ERASED_EVENT_ATTEMPTS times.
 */
export async function tellErased(
  tell: NonNullable<DestinationLink["tellErased"]>,
  leadId: string,
  erasedAt: Date,
  wait: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<ErasedEventOutcome> {
  for (let attempts = 1; ; attempts += 1) {
    const result = await tell(leadId, erasedAt);
    if (result.ok) return { took: true, attempts };
    if (!result.retry || attempts >= ERASED_EVENT_ATTEMPTS)
      return { took: false, attempts, error: result.error };
    await wait(backoffMs(attempts, ERASED_EVENT_BACKOFF, { retryAfterMs: result.retryAfterMs }));
  }
}
