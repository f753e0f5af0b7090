import type { Enquiry } from "~/enquiry/fields";
import type { Env } from "~/env.server";
import { createDelivery, PROBE_AFTER_MS } from "~/leads/delivery.server";
import { describeLeads, type LeadsHealth } from "~/leads/health";
import type { SpamReason } from "~/leads/lead";
import { createDelivererLock, delivererLockPath } from "~/leads/lock.server";
import { createLeadStore, leadsFolder, MAX_LEADS, StoreFullError } from "~/leads/store.server";
import type { MailTransport } from "~/mail/types";

export type { LeadsHealth } from "~/leads/health";

export interface LeadService {
  /**
   * Keeps an enquiry in the store and has it delivered: its lead's id, or null when the store
   * cannot keep it (then the caller sends it directly).
   */
  keep(enquiry: Enquiry): Promise<string | null>;
  /**
   * Keeps an enquiry a filter caught in the quarantine (state `spam`, never delivered): its
   * lead's id, or null when the store cannot keep it. Nothing is sent directly: a caught
   * enquiry waits for an operator.
   */
  quarantine(enquiry: Enquiry, reason: SpamReason): Promise<string | null>;
  /** Whether the lead `id` is still kept: false once it was erased (by any process) or removed. */
  holds(id: string): Promise<boolean>;
  /** The store's state (from the last write, or a write probe when there was none lately) and its counts. */
  health(now?: number): Promise<LeadsHealth>;
  /** Starts the delivery loop (its timers never keep the process alive). */
  start(): void;
  /**
   * Stops delivery for a clean shutdown: no new send; resolves once a send in flight has its
   * outcome written and the lock is free. Stored leads wait for the next start.
   */
  stop(): Promise<void>;
}

/**
 * The lead pipeline of `ENQUIRY_STORE_DIR`, created once by the server: the wiring only, the
 * behaviour lives in store, lock and delivery.
 */
export function createLeadService(
  config: Pick<
    Env,
    | "ENQUIRY_STORE_DIR"
    | "ENQUIRY_SEND_INTERVAL_MS"
    | "ENQUIRY_RETENTION_DAYS"
    | "ENQUIRY_SPAM_RETENTION_DAYS"
  >,
  transport: MailTransport | null,
  log: (line: string) => void = console.error,
): LeadService {
  const folder = leadsFolder(config.ENQUIRY_STORE_DIR);
  let usable = true;
  let full = false;
  const markUsable = (now: boolean, cause?: unknown) => {
    if (now === usable) return;
    usable = now;
    if (now) {
      log(`lead store: ENQUIRY_STORE_DIR=${config.ENQUIRY_STORE_DIR} is usable again; enquiries are kept`);
      return;
    }
    const reason = cause instanceof Error ? cause.message : String(cause);
    log(
      `lead store: ENQUIRY_STORE_DIR=${config.ENQUIRY_STORE_DIR} is unusable (${reason}); enquiries are sent directly and not kept until it is fixed`,
    );
  };
  const store = createLeadStore({ folder, onWrite: (error) => markUsable(error === null, error) });
  const delivery = createDelivery({
    store,
    transport,
    lock: createDelivererLock({ path: delivererLockPath(folder) }),
    intervalMs: config.ENQUIRY_SEND_INTERVAL_MS,
    retentionDays: config.ENQUIRY_RETENTION_DAYS,
    spamRetentionDays: config.ENQUIRY_SPAM_RETENTION_DAYS,
  });

  return {
    async keep(enquiry) {
      try {
        const lead = await store.add(enquiry, transport ? "pending" : "inbox");
        full = false;
        delivery.wake();
        return lead.id;
      } catch (error) {
        if (error instanceof StoreFullError && !full) {
          full = true;
          log(
            `lead store: ENQUIRY_STORE_DIR=${config.ENQUIRY_STORE_DIR}: ${error.message}; new enquiries are sent directly and not kept until leads are delivered or removed (retention or by hand)`,
          );
        }
        return null;
      }
    },
    async quarantine(enquiry, reason) {
      try {
        return (await store.quarantine(enquiry, reason)).id;
      } catch {
        // The store's write outcome (onWrite) already says whether the folder is usable.
        return null;
      }
    },
    holds: (id) => store.has(id),
    async health(now = Date.now()) {
      const written = store.lastWrite();
      if (!written || now - written.at >= PROBE_AFTER_MS) await store.probe();
      return describeLeads({
        leads: delivery.leads(),
        lastWrite: store.lastWrite(),
        maxLeads: MAX_LEADS,
        now,
      });
    },
    start() {
      delivery.start();
      void store.probe();
    },
    stop: () => delivery.stop(),
  };
}
