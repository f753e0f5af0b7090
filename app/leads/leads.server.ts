import { join } from "node:path";
import { env } from "~/env.server";
import { createDelivery } from "~/leads/delivery.server";
import type { SpamReason } from "~/leads/lead";
import { createDelivererLock } from "~/leads/lock.server";
import { createLeadStore, leadsFolder, StoreFullError } from "~/leads/store.server";
import { mailTransport } from "~/mail/transport.server";
import type { EnquiryMessage } from "~/mail/types";

export interface LeadsHealth {
  store: "ok" | "unusable" | "full";
  /** `spam`: how many quarantined leads wait for an operator (`npm run leads -- --spam`). */
  leads: { pending: number; failed: number; oldestPendingSeconds: number; spam: number };
}

const store = createLeadStore({ folder: leadsFolder(env.ENQUIRY_STORE_DIR) });
const delivery = createDelivery({
  store,
  transport: mailTransport,
  lock: createDelivererLock({ path: join(leadsFolder(env.ENQUIRY_STORE_DIR), "deliverer.lock") }),
  intervalMs: env.ENQUIRY_SEND_INTERVAL_MS,
  retentionDays: env.ENQUIRY_RETENTION_DAYS,
  spamRetentionDays: env.ENQUIRY_SPAM_RETENTION_DAYS,
  onScan: (error) => markUsable(error === null, error),
});

let usable = true;
let full = false;
function markUsable(now: boolean, cause?: unknown) {
  if (now === usable) return;
  usable = now;
  if (now) {
    console.error(
      `lead store: ENQUIRY_STORE_DIR=${env.ENQUIRY_STORE_DIR} is usable again; enquiries are kept`,
    );
    return;
  }
  const reason = cause instanceof Error ? cause.message : String(cause);
  console.error(
    `lead store: ENQUIRY_STORE_DIR=${env.ENQUIRY_STORE_DIR} is unusable (${reason}); enquiries are sent directly and not kept until it is fixed`,
  );
}

/**
 * Keeps an enquiry in the store and has it delivered; false when the store cannot keep it
 * (then the caller sends it directly).
 */
export async function keepLead(enquiry: EnquiryMessage): Promise<boolean> {
  try {
    await store.add(enquiry, mailTransport ? "pending" : "inbox");
    markUsable(true);
    full = false;
    delivery.wake();
    return true;
  } catch (error) {
    if (!(error instanceof StoreFullError)) markUsable(false, error);
    else if (!full) {
      full = true;
      console.error(
        `lead store: ENQUIRY_STORE_DIR=${env.ENQUIRY_STORE_DIR}: ${error.message}; new enquiries are sent directly and not kept until leads are removed (retention or by hand)`,
      );
    }
    return false;
  }
}

/**
 * Keeps an enquiry a filter caught in the quarantine (state `spam`, never delivered); false
 * when the store cannot keep it. Nothing is sent directly: a caught enquiry waits for an operator.
 */
export async function quarantineLead(enquiry: EnquiryMessage, reason: SpamReason): Promise<boolean> {
  try {
    await store.quarantine(enquiry, reason);
    markUsable(true);
    return true;
  } catch (error) {
    markUsable(false, error);
    return false;
  }
}

export function leadsHealth(now = Date.now()): LeadsHealth {
  let pending = 0;
  let failed = 0;
  let spam = 0;
  let oldest = now;
  for (const lead of store.leads()) {
    if (lead.state === "failed") failed += 1;
    if (lead.state === "spam") spam += 1;
    if (lead.state !== "pending") continue;
    pending += 1;
    oldest = Math.min(oldest, Date.parse(lead.receivedAt));
  }
  return {
    store: usable ? (full ? "full" : "ok") : "unusable",
    leads: { pending, failed, oldestPendingSeconds: Math.round((now - oldest) / 1000), spam },
  };
}

/** Stops delivery (timers and lock) for a clean shutdown; stored leads wait for the next start. */
export const stopLeadDelivery = () => delivery.stop();

delivery.start();
