/**
 * Whether this process is the deliverer: takes, keeps and gives up the deliverer lock, and prunes
 * expired leads while it holds it.
 */
import type { LeadStore, Retention } from "~/leads/contract.server";
import type { DelivererLock } from "~/leads/deliverer-lock";
import type { FaultReport } from "~/leads/delivery/faults.server";

/** How often the deliverer removes leads past their retention. */
const PRUNE_MS = 60 * 60_000;

/**
 * Whether this process is the deliverer: it takes the lock once a scan worked, keeps it with a
 * heartbeat, says once that another process delivers, and (as the deliverer) applies retention.
 */
export function createDelivererOwnership(options: {
  store: LeadStore;
  lock: DelivererLock;
  retention: Retention;
  now: () => Date;
  log: (line: string) => void;
  report: FaultReport;
  /** Brings the store's view up to date; false when it failed (and was reported). */
  scan: () => Promise<boolean>;
  stopping: () => boolean;
  /** This process just took the lock. */
  onAcquired: () => Promise<void>;
}) {
  const { store, lock, retention, now, log, report, scan, stopping, onAcquired } = options;
  let owner = false;
  let waitingLogged = false;
  let lastPruneAt = 0;

  const lost = () => {
    owner = false;
    log(
      `lead store: this process no longer holds the delivery lock of ${store.folder} (another process took it, or its connection ended); it waits and delivers again once it holds it`,
    );
  };

  return {
    owns: () => owner,
    lost,
    /** One heartbeat: keeps the lock, or tries to take it. */
    async tick() {
      try {
        if (owner) {
          if (!(await lock.heartbeat())) lost();
        } else if (stopping()) {
          return;
        } else if ((await scan()) && (await lock.acquire())) {
          owner = true;
          waitingLogged = false;
          await onAcquired();
        } else if (!waitingLogged) {
          waitingLogged = true;
          log(
            `lead store: another server process delivers from ${store.folder}; this one stores enquiries and waits`,
          );
        }
        if (owner && !stopping() && now().getTime() - lastPruneAt >= PRUNE_MS) {
          lastPruneAt = now().getTime();
          await store.prune(retention);
        }
      } catch (error) {
        report("lock")(error);
      }
    },
    async release() {
      if (owner) await lock.release().catch(report("lock"));
      owner = false;
    },
  };
}
