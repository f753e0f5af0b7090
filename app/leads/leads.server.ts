import { join } from "node:path";
import type { Enquiry } from "~/enquiry/fields";
import type { Env } from "~/env.server";
import { createDelivery } from "~/leads/delivery.server";
import { createDelivererLock } from "~/leads/lock.server";
import { createLeadStore, leadsFolder, StoreFullError } from "~/leads/store.server";
import type { MailTransport } from "~/mail/types";

export interface LeadsHealth {
  store: "ok" | "unusable" | "full";
  leads: { pending: number; failed: number; oldestPendingSeconds: number };
}

export interface LeadService {
  /**
   * Keeps an enquiry in the store and has it delivered; false when the store cannot keep it
   * (then the caller sends it directly).
   */
  keep(enquiry: Enquiry): Promise<boolean>;
  health(now?: number): LeadsHealth;
  /** Starts the delivery loop (its timers never keep the process alive). */
  start(): void;
  /** Stops delivery (timers and lock) for a clean shutdown; stored leads wait for the next start. */
  stop(): Promise<void>;
}

/** The lead store of `ENQUIRY_STORE_DIR` and its delivery loop, created once by the server. */
export function createLeadService(
  config: Pick<Env, "ENQUIRY_STORE_DIR" | "ENQUIRY_SEND_INTERVAL_MS" | "ENQUIRY_RETENTION_DAYS">,
  transport: MailTransport | null,
  log: (line: string) => void = console.error,
): LeadService {
  const folder = leadsFolder(config.ENQUIRY_STORE_DIR);
  const store = createLeadStore({ folder });
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
  const delivery = createDelivery({
    store,
    transport,
    lock: createDelivererLock({ path: join(folder, "deliverer.lock") }),
    intervalMs: config.ENQUIRY_SEND_INTERVAL_MS,
    retentionDays: config.ENQUIRY_RETENTION_DAYS,
    onScan: (error) => markUsable(error === null, error),
  });

  return {
    async keep(enquiry) {
      try {
        await store.add(enquiry, transport ? "pending" : "inbox");
        markUsable(true);
        full = false;
        delivery.wake();
        return true;
      } catch (error) {
        if (!(error instanceof StoreFullError)) markUsable(false, error);
        else if (!full) {
          full = true;
          log(
            `lead store: ENQUIRY_STORE_DIR=${config.ENQUIRY_STORE_DIR}: ${error.message}; new enquiries are sent directly and not kept until leads are removed (retention or by hand)`,
          );
        }
        return false;
      }
    },
    health(now = Date.now()) {
      let pending = 0;
      let failed = 0;
      let oldest = now;
      for (const lead of store.leads()) {
        if (lead.state === "failed") failed += 1;
        if (lead.state !== "pending") continue;
        pending += 1;
        oldest = Math.min(oldest, Date.parse(lead.receivedAt));
      }
      return {
        store: usable ? (full ? "full" : "ok") : "unusable",
        leads: { pending, failed, oldestPendingSeconds: Math.round((now - oldest) / 1000) },
      };
    },
    start: () => delivery.start(),
    stop: () => delivery.stop(),
  };
}
