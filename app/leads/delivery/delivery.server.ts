/** Delivery: the loop that sends pending leads to the agency while this process holds the deliverer lock. */
import type { DestinationName } from "~/destinations/destination";
import type { LeadStore } from "~/leads/contract.server";
import { type DelivererLock, HEARTBEAT_MS } from "~/leads/deliverer-lock";
import { createFaultReport } from "~/leads/delivery/faults.server";
import { createOutcomeWriter, type OutcomeWriter } from "~/leads/delivery/outcomes.server";
import { createDelivererOwnership } from "~/leads/delivery/ownership.server";
import { createLeadSender, type SendLead } from "~/leads/delivery/sender.server";
import { type Lead, logLeadState } from "~/leads/lead";

export type { SendLead } from "~/leads/delivery/sender.server";

/**
 * How delivery reaches the agency, as server/services.ts wires it from the mail configuration:
 * `send`: a function that sends one lead; `held`: EmailJS is partly configured, so pending leads
 * wait until it is fixed; `inbox`: no EmailJS at all, so the store is where the team reads leads.
 */
export type LeadMail = { kind: "send"; send: SendLead } | { kind: "held" } | { kind: "inbox" };

/** How often every process rereads the store (leads another process stored, operator retries). */
export const SCAN_MS = 5_000;
/** Without a write for this long, the store's state comes from a write probe. */
export const PROBE_AFTER_MS = 60_000;

/** A destination gave up on a lead for good (an attempt turned its record `failed`). */
export interface GaveUp {
  leadId: string;
  destination: DestinationName;
  attempts: number;
  lastError: string | null;
}

export interface Delivery {
  /** Starts the timers (all unref'd: they never keep the process alive). */
  start(): void;
  /** A lead was just stored: deliver now if this process is the deliverer and idle. */
  wake(): void;
  /**
   * Starts no new send; resolves once the outcome of a send in flight is written (the caller
   * bounds the wait: SHUTDOWN_DEADLINE), then lets go of the lock.
   */
  stop(): Promise<void>;
  /** How many unwritten outcomes (EmailJS's answers the store has not taken yet) wait in memory. */
  unwrittenCount(): number;
  /** The unwritten outcomes by lead id: they win over what the store holds. */
  unwrittenOutcomes(): ReadonlyMap<string, Lead>;
  /** Whether this process holds the deliverer lock now. */
  isDeliverer(): boolean;
}

/**
 * Sends stored `pending` leads with `mail`'s send function, one at a time, at most one per
 * `intervalMs`, soonest due first: each send claims its lead from the store right before it.
 * Only the holder of `lock` sends (one pace for EmailJS); other processes store and wait. The holder also applies retention and, with no EmailJS configured at all, files
 * `pending` leads (an operator's release or retry) in the inbox. A partial configuration sends
 * nothing and leaves them pending.
 */
export function createDelivery(options: {
  store: LeadStore;
  mail: LeadMail;
  lock: DelivererLock;
  intervalMs: number;
  retentionDays: number;
  /** Days a quarantined lead is kept (ENQUIRY_SPAM_RETENTION_DAYS). */
  spamRetentionDays: number;
  now?: () => Date;
  random?: () => number;
  log?: (line: string) => void;
  heartbeatMs?: number;
  scanMs?: number;
  /** Told once per lead a send turned `failed` (never on a replay); must return at once. */
  onGaveUp?: (gaveUp: GaveUp) => void;
}): Delivery {
  const { store, mail, lock, intervalMs, random } = options;
  const now = options.now ?? (() => new Date());
  const { heartbeatMs = HEARTBEAT_MS, scanMs = SCAN_MS } = options;
  const log = options.log ?? console.error;
  const outcomes = createOutcomeWriter({ store, now, log });
  const sender = createLeadSender({ outcomes, now, random });
  const report = createFaultReport(store, log);
  let stopping = false;
  let busy = false;
  /** The delivery turn under way (a send and the write of its outcome), if any. */
  let running: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  const timers: NodeJS.Timeout[] = [];

  const schedule = (delayMs: number) => {
    if (stopping) return;
    clearTimeout(timer);
    timer = setTimeout(pump, Math.max(0, delayMs));
    timer.unref();
  };

  async function scan(): Promise<boolean> {
    try {
      await store.scan();
      return true;
    } catch (error) {
      report("scan")(error);
      return false;
    }
  }

  const ownership = createDelivererOwnership({
    store,
    lock,
    retention: { days: options.retentionDays, spamDays: options.spamRetentionDays },
    now,
    log,
    report,
    scan,
    stopping: () => stopping,
    async onAcquired() {
      await store.hurryPending();
      schedule(0);
    },
  });

  function pump() {
    if (busy || stopping) return;
    busy = true;
    running = turn().finally(() => {
      busy = false;
      running = undefined;
    });
  }

  async function turn() {
    try {
      // Outcomes are this process's to write, whoever delivers now.
      await outcomes.writeDue();
      const owner = ownership.owns();
      if (owner && mail.kind === "inbox") return await fileInInbox(store, outcomes, () => stopping);
      if (!owner || mail.kind !== "send") return;
      const time = now().getTime();
      const wait = sender.lastSendAt() + intervalMs - time;
      if (wait > 0) return schedule(Math.min(wait, outcomes.firstRetryIn(), scanMs));
      if (!(await lock.holds())) return ownership.lost();
      // Claimed right before its send, so the claim outlives it; never a lead whose outcome waits.
      const claim = await store.claimNext(outcomes.unwrittenIds());
      if (!claim.lead) {
        // Nothing due, or what is due is held by another claim for now: look again when the
        // next lead is due, at the latest at the next scan.
        const dueIn = claim.dueAt !== null && claim.dueAt > time ? claim.dueAt - time : scanMs;
        return schedule(Math.min(dueIn, outcomes.firstRetryIn(), scanMs));
      }
      // Checked after the last await before the send: a SIGTERM during the checks starts no send.
      if (stopping) return;
      const sent = await sender.send(claim.lead, mail.send);
      if (sent.state === "failed") {
        const { id: leadId, attempts, lastError } = sent;
        options.onGaveUp?.({ leadId, destination: "emailjs", attempts, lastError });
      }
      schedule(intervalMs);
    } catch (error) {
      report("send")(error);
      schedule(intervalMs);
    }
  }

  async function rescan() {
    const scanned = await scan();
    // While writes fail, a probe every scan tells the moment the store takes them again.
    const written = store.lastWrite();
    if (!written?.ok || now().getTime() - written.at >= PROBE_AFTER_MS) await store.probe();
    if (outcomes.unwrittenCount() > 0 && store.lastWrite()?.ok) outcomes.retryNow();
    if ((scanned && ownership.owns()) || outcomes.unwrittenCount() > 0) schedule(0);
  }

  const every = (ms: number, task: () => Promise<void>) => {
    timers.push(setInterval(task, ms).unref());
  };

  return {
    start() {
      void ownership.tick();
      every(heartbeatMs, ownership.tick);
      every(scanMs, rescan);
    },
    wake() {
      if (ownership.owns() && !busy)
        schedule(Math.max(0, sender.lastSendAt() + intervalMs - now().getTime()));
    },
    async stop() {
      stopping = true;
      clearTimeout(timer);
      // The heartbeat goes on while a send in flight finishes and its outcome is written.
      await running;
      await writeSentOutcomes(outcomes);
      for (const interval of timers) clearInterval(interval);
      timers.length = 0;
      await ownership.release();
    },
    unwrittenCount: () => outcomes.unwrittenCount(),
    unwrittenOutcomes: () => outcomes.unwrittenOutcomes(),
    isDeliverer: () => ownership.owns(),
  };
}

/** Without any EmailJS the store is the inbox: a lead queued for delivery is filed there. */
async function fileInInbox(store: LeadStore, outcomes: OutcomeWriter, stopping: () => boolean) {
  while (!stopping()) {
    const { lead } = await store.claimNext(outcomes.unwrittenIds());
    if (!lead) return;
    const filed: Lead = { ...lead, state: "inbox" };
    logLeadState(filed);
    await outcomes.write(filed);
  }
}

/** Writes the outcomes of sends EmailJS accepted until none waits (the caller bounds the wait). */
async function writeSentOutcomes(outcomes: OutcomeWriter) {
  let delayMs = 200;
  while (outcomes.sentUnwritten()) {
    await outcomes.writeDue(true);
    if (outcomes.unwrittenCount() === 0) break;
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    delayMs = Math.min(delayMs * 2, 2_000);
  }
}
