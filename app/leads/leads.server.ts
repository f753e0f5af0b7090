import { join } from "node:path";
import { env } from "~/env.server";
import { createDelivery, PROBE_AFTER_MS } from "~/leads/delivery.server";
import { describeLeads, type LeadsHealth } from "~/leads/health";
import { createDelivererLock } from "~/leads/lock.server";
import { createLeadStore, leadsFolder, MAX_LEADS, StoreFullError } from "~/leads/store.server";
import { mailTransport } from "~/mail/transport.server";
import type { EnquiryMessage } from "~/mail/types";

export type { LeadsHealth } from "~/leads/health";

// The wiring of the lead pipeline: the behaviour lives in store, lock and delivery.

let usable = true;
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

const store = createLeadStore({
  folder: leadsFolder(env.ENQUIRY_STORE_DIR),
  onWrite: (error) => markUsable(error === null, error),
});
const delivery = createDelivery({
  store,
  transport: mailTransport,
  lock: createDelivererLock({ path: join(leadsFolder(env.ENQUIRY_STORE_DIR), "deliverer.lock") }),
  intervalMs: env.ENQUIRY_SEND_INTERVAL_MS,
  retentionDays: env.ENQUIRY_RETENTION_DAYS,
});

let full = false;

/**
 * Keeps an enquiry in the store and has it delivered; false when the store cannot keep it
 * (then the caller sends it directly).
 */
export async function keepLead(enquiry: EnquiryMessage): Promise<boolean> {
  try {
    await store.add(enquiry, mailTransport ? "pending" : "inbox");
    full = false;
    delivery.wake();
    return true;
  } catch (error) {
    if (error instanceof StoreFullError && !full) {
      full = true;
      console.error(
        `lead store: ENQUIRY_STORE_DIR=${env.ENQUIRY_STORE_DIR}: ${error.message}; new enquiries are sent directly and not kept until leads are delivered or removed (retention or by hand)`,
      );
    }
    return false;
  }
}

/** The store's state (from the last write, or a write probe when there was none lately) and its counts. */
export async function leadsHealth(now = Date.now()): Promise<LeadsHealth> {
  const written = store.lastWrite();
  if (!written || now - written.at >= PROBE_AFTER_MS) await store.probe();
  return describeLeads({ leads: delivery.leads(), lastWrite: store.lastWrite(), maxLeads: MAX_LEADS, now });
}

/**
 * Stops delivery for a clean shutdown: no new send; resolves once a send in flight has its
 * outcome written and the lock is free. Stored leads wait for the next start.
 */
export const stopLeadDelivery = () => delivery.stop();

delivery.start();
void store.probe();
