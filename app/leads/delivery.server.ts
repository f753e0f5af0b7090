import { type Lead, logLeadState } from "~/leads/lead";
import { type DelivererLock, HEARTBEAT_MS } from "~/leads/lock.server";
import { afterAttempt } from "~/leads/schedule";
import type { LeadStore } from "~/leads/store.server";
import { logMailFailure, type MailTransport } from "~/mail/types";

/** How often every process rereads the folder (leads another process stored, operator retries). */
export const SCAN_MS = 5_000;
/** How often the deliverer removes leads past their retention. */
const PRUNE_MS = 60 * 60_000;

export interface Delivery {
  /** Starts the timers (all unref'd: they never keep the process alive). */
  start(): void;
  /** A lead was just stored: deliver now if this process is the deliverer and idle. */
  wake(): void;
  /** Stops the timers and lets go of the lock; a send in flight finishes on its own. */
  stop(): Promise<void>;
  /** Whether this process holds the deliverer lock. */
  delivering(): boolean;
}

/**
 * Sends stored `pending` leads through `transport`, one at a time, at most one per
 * `intervalMs`, oldest due first. Only the holder of `lock` sends; other processes store and
 * wait. With no transport (no EmailJS configured, or only partly) nothing is sent: the lock
 * holder still applies retention.
 */
export function createDelivery(options: {
  store: LeadStore;
  transport: MailTransport | null;
  lock: DelivererLock;
  intervalMs: number;
  retentionDays: number;
  /** Days a quarantined lead is kept (ENQUIRY_SPAM_RETENTION_DAYS). */
  spamRetentionDays: number;
  now?: () => Date;
  random?: () => number;
  log?: (line: string) => void;
  /** Told after every scan of the folder: null when it worked, the error when it did not. */
  onScan?: (error: unknown) => void;
}): Delivery {
  const { store, transport, lock, intervalMs, retentionDays, spamRetentionDays, random } = options;
  const now = options.now ?? (() => new Date());
  const log = options.log ?? console.error;
  const onScan = options.onScan ?? (() => {});
  const sending = transport?.name === "emailjs" ? transport : null;
  let owner = false;
  let waitingLogged = false;
  let busy = false;
  let lastSendAt = 0;
  let lastPruneAt = 0;
  let timer: NodeJS.Timeout | undefined;
  const timers: NodeJS.Timeout[] = [];
  // Leads found pending when this process became the deliverer are tried at once.
  const immediate = new Set<string>();

  const dueAt = (lead: Lead) => (immediate.has(lead.id) ? 0 : Date.parse(lead.nextAttemptAt));

  const schedule = (delayMs: number) => {
    clearTimeout(timer);
    timer = setTimeout(pump, Math.max(0, delayMs));
    timer.unref();
  };

  // A broken folder fails every few seconds the same way: say it once, until it changes.
  let lastReport = "";
  const report = (error: unknown) => {
    const line = `lead store: ${store.folder}: ${error instanceof Error ? error.message : String(error)}`;
    if (line !== lastReport) log(line);
    lastReport = line;
  };

  async function pump() {
    if (!owner || !sending || busy) return;
    let next: Lead | undefined;
    for (const lead of store.leads()) {
      if (lead.state === "pending" && (next === undefined || dueAt(lead) < dueAt(next))) next = lead;
    }
    if (!next) return;
    const time = now().getTime();
    const wait = Math.max(dueAt(next) - time, lastSendAt + intervalMs - time);
    if (wait > 0) return schedule(Math.min(wait, SCAN_MS));
    busy = true;
    try {
      if (!(await lock.holds())) {
        owner = false;
        log(`lead store: another process took over delivery from ${store.folder}; this one waits`);
        return;
      }
      const lead = next;
      // Erased while it waited (`npm run leads -- erase`): never sent, never written back.
      if (await store.isErased(lead)) {
        immediate.delete(lead.id);
        schedule(0);
        return;
      }
      lastSendAt = now().getTime();
      const result = await sending.send(lead.enquiry);
      immediate.delete(lead.id);
      const updated = afterAttempt(lead, result, now(), random);
      if (!result.ok) logMailFailure(sending.name, result);
      if ((await store.save(updated)) && updated.state !== lead.state) logLeadState(updated);
    } catch (error) {
      report(error);
    } finally {
      busy = false;
    }
    schedule(intervalMs);
  }

  async function takeTurn() {
    try {
      if (owner) {
        if (!(await lock.heartbeat())) {
          owner = false;
          log(`lead store: another process took over delivery from ${store.folder}; this one waits`);
        }
      } else if ((await scan()) && (await lock.acquire())) {
        owner = true;
        waitingLogged = false;
        for (const lead of store.leads()) if (lead.state === "pending") immediate.add(lead.id);
        schedule(0);
      } else if (!waitingLogged) {
        waitingLogged = true;
        log(
          `lead store: another server process delivers from ${store.folder}; this one stores enquiries and waits`,
        );
      }
      if (owner && now().getTime() - lastPruneAt >= PRUNE_MS) {
        lastPruneAt = now().getTime();
        await store.prune({ days: retentionDays, spamDays: spamRetentionDays });
      }
    } catch (error) {
      report(error);
    }
  }

  async function scan(): Promise<boolean> {
    try {
      await store.scan();
      onScan(null);
      return true;
    } catch (error) {
      onScan(error);
      return false;
    }
  }

  async function rescan() {
    if ((await scan()) && owner) schedule(0);
  }

  const every = (ms: number, task: () => Promise<void>) => {
    const interval = setInterval(task, ms);
    interval.unref();
    timers.push(interval);
  };

  return {
    start() {
      void takeTurn();
      every(HEARTBEAT_MS, takeTurn);
      every(SCAN_MS, rescan);
    },
    wake() {
      if (owner && !busy) schedule(Math.max(0, lastSendAt + intervalMs - now().getTime()));
    },
    async stop() {
      for (const interval of timers) clearInterval(interval);
      timers.length = 0;
      clearTimeout(timer);
      if (owner) await lock.release();
      owner = false;
    },
    delivering: () => owner,
  };
}
