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
  /**
   * Whether this process could deliver if it took the lock: false while a send it began before
   * it lost the lock is still in flight, which would hold the lock with no send to make.
   */
  free: () => boolean;
  /** This process just took the lock. */
  onAcquired: () => Promise<void>;
}) {
  const { store, lock, retention, now, log, report, scan, stopping, free, onAcquired } = options;
  let owner = false;
  let waitingLogged = false;
  let lastPruneAt = 0;
  /** The heartbeat under way, if any. */
  let ticking: Promise<void> | undefined;

  const lost = () => {
    owner = false;
    log(
      `lead store: this process no longer holds the delivery lock of ${store.folder} (another process took it, or its connection ended); it waits and delivers again once it holds it`,
    );
  };

  return {
    owns: () => owner,
    lost,
    /**
     * One heartbeat: keeps the lock, or tries to take it. One at a time: a heartbeat that comes
     * while the last one still waits on the store is skipped.
     */
    tick() {
      ticking ??= beat().finally(() => {
        ticking = undefined;
      });
      return ticking;
    },
    /** Gives the lock up, once the heartbeat under way is over: a lock it took meanwhile is given up too. */
    async release() {
      await ticking;
      if (owner) await lock.release().catch(report("lock"));
      owner = false;
    },
  };

  async function beat() {
    try {
      if (owner) {
        if (!(await lock.heartbeat())) lost();
      } else if (stopping() || !free()) {
        return;
      } else if ((await scan()) && (await lock.acquire())) {
        owner = true;
        waitingLogged = false;
        // Taken while the process stops: release(), waiting for this heartbeat, gives it up.
        if (stopping()) return;
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
  }
}
