import { DatabaseUnavailableError } from "~/db/database.server";
import type { LeadStore } from "~/leads/contract.server";
import { type Lead, logLeadState } from "~/leads/lead";
import { type DelivererLock, HEARTBEAT_MS } from "~/leads/lock.server";
import { createOutcomeWriter, type OutcomeWriter } from "~/leads/outcomes.server";
import { afterAttempt } from "~/leads/schedule";
import { logMailFailure } from "~/mail/failures.server";
import type { MailTransport } from "~/mail/types";

/** How often every process rereads the store (leads another process stored, operator retries). */
export const SCAN_MS = 5_000;
/** How often the deliverer removes leads past their retention. */
const PRUNE_MS = 60 * 60_000;
/** Without a write for this long, the store's state comes from a write probe. */
export const PROBE_AFTER_MS = 60_000;

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
  /** Outcomes EmailJS gave that are not written yet (kept in memory, written again with backoff). */
  unwritten(): number;
  /** Those outcomes by lead id: they win over what the store holds. */
  outcomes(): ReadonlyMap<string, Lead>;
  /** The store's delivery view as this process knows it (an outcome not yet written wins), oldest first. */
  leads(): Lead[];
}

/**
 * Sends stored `pending` leads through `transport`, one at a time, at most one per
 * `intervalMs`, oldest due first. Only the holder of `lock` sends; other processes store and
 * wait. The holder also applies retention and, with no EmailJS configured at all, files
 * `pending` leads (an operator's release or retry) in the inbox. A partial configuration sends
 * nothing and leaves them pending.
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
  heartbeatMs?: number;
  scanMs?: number;
}): Delivery {
  const { store, transport, lock, intervalMs, random } = options;
  const now = options.now ?? (() => new Date());
  const { heartbeatMs = HEARTBEAT_MS, scanMs = SCAN_MS } = options;
  const log = options.log ?? console.error;
  const retention = { days: options.retentionDays, spamDays: options.spamRetentionDays };
  const sending = transport?.name === "emailjs" ? transport : null;
  const outcomes = createOutcomeWriter({ store, now, log });
  let owner = false;
  let stopping = false;
  let waitingLogged = false;
  let busy = false;
  /** The delivery turn under way (a send and the write of its outcome), if any. */
  let running: Promise<void> | undefined;
  let lastSendAt = 0;
  let lastPruneAt = 0;
  let timer: NodeJS.Timeout | undefined;
  const timers: NodeJS.Timeout[] = [];
  // Leads found pending when this process became the deliverer are tried at once.
  const immediate = new Set<string>();
  /** Leads EmailJS accepted in this process's life: never sent again, written or not. */
  const accepted = new Set<string>();

  /** A lead as this process knows it: an outcome not yet written wins over the store. */
  const current = (lead: Lead) => outcomes.pending().get(lead.id) ?? lead;
  const dueAt = (lead: Lead) => (immediate.has(lead.id) ? 0 : Date.parse(lead.nextAttemptAt));

  const schedule = (delayMs: number) => {
    if (stopping) return;
    clearTimeout(timer);
    timer = setTimeout(pump, Math.max(0, delayMs));
    timer.unref();
  };

  const report = createFaultReport(store, log);

  const lostLock = () => {
    owner = false;
    log(
      `lead store: this process no longer holds the delivery lock of ${store.folder} (another process took it, or its connection ended); it waits and delivers again once it holds it`,
    );
  };

  async function send(lead: Lead, via: MailTransport) {
    lastSendAt = now().getTime();
    const result = await via.send(lead.enquiry, lead.source);
    immediate.delete(lead.id);
    const updated = afterAttempt(lead, result, now(), random);
    if (updated.state === "sent") accepted.add(lead.id);
    if (!result.ok) logMailFailure(via.name, result);
    if (updated.state !== lead.state) logLeadState(updated);
    await outcomes.write(updated);
  }

  function next(): Lead | undefined {
    let chosen: Lead | undefined;
    for (const stored of store.leads()) {
      const lead = current(stored);
      if (lead.state !== "pending" || accepted.has(lead.id)) continue;
      if (chosen === undefined || dueAt(lead) < dueAt(chosen)) chosen = lead;
    }
    return chosen;
  }

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
      if (owner && transport === null) return await fileInInbox(store, outcomes, current, () => stopping);
      if (!owner || !sending) return;
      const lead = next();
      const time = now().getTime();
      if (!lead) {
        if (outcomes.size() > 0) schedule(Math.min(outcomes.firstRetryIn(), scanMs));
        return;
      }
      const wait = Math.max(dueAt(lead) - time, lastSendAt + intervalMs - time);
      if (wait > 0) return schedule(Math.min(wait, outcomes.firstRetryIn(), scanMs));
      if (!(await lock.holds())) return lostLock();
      // Erased while it waited (`npm run leads -- erase`), or another deliverer's: never sent here.
      const claimed = await store.claim(lead);
      if (!claimed) {
        immediate.delete(lead.id);
        schedule(0);
        return;
      }
      // Checked after the last await before the send: a SIGTERM during the checks starts no send.
      if (stopping) return;
      await send(claimed, sending);
      schedule(intervalMs);
    } catch (error) {
      report("send")(error);
      schedule(intervalMs);
    }
  }

  async function takeTurn() {
    try {
      if (owner) {
        if (!(await lock.heartbeat())) lostLock();
      } else if (stopping) {
        return;
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
      if (owner && !stopping && now().getTime() - lastPruneAt >= PRUNE_MS) {
        lastPruneAt = now().getTime();
        await store.prune(retention);
      }
    } catch (error) {
      report("lock")(error);
    }
  }

  async function scan(): Promise<boolean> {
    try {
      await store.scan();
      return true;
    } catch (error) {
      report("scan")(error);
      return false;
    }
  }

  async function rescan() {
    const scanned = await scan();
    // While writes fail, a probe every scan tells the moment the store takes them again.
    const written = store.lastWrite();
    if (!written?.ok || now().getTime() - written.at >= PROBE_AFTER_MS) await store.probe();
    if (outcomes.size() > 0 && store.lastWrite()?.ok) outcomes.retryNow();
    if ((scanned && owner) || outcomes.size() > 0) schedule(0);
  }

  const every = (ms: number, task: () => Promise<void>) => {
    timers.push(setInterval(task, ms).unref());
  };

  return {
    start() {
      void takeTurn();
      every(heartbeatMs, takeTurn);
      every(scanMs, rescan);
    },
    wake() {
      if (owner && !busy) schedule(Math.max(0, lastSendAt + intervalMs - now().getTime()));
    },
    async stop() {
      stopping = true;
      clearTimeout(timer);
      // The heartbeat goes on while a send in flight finishes and its outcome is written.
      await running;
      await writeSentOutcomes(outcomes);
      for (const interval of timers) clearInterval(interval);
      timers.length = 0;
      if (owner) await lock.release().catch(report("lock"));
      owner = false;
    },
    unwritten: () => outcomes.size(),
    outcomes: () => outcomes.pending(),
    leads: () => store.leads().map(current),
  };
}

type Task = "send" | "lock" | "scan";

/**
 * A broken store fails every few seconds the same way: each task (sending; the lock and
 * retention; the scan) says it once until its error changes, so two never alternate in the log.
 */
function createFaultReport(store: LeadStore, log: (line: string) => void) {
  const lastReport = new Map<Task, string>();
  return (task: Task) => (error: unknown) => {
    // The database says its own outage once when it starts and once when it ends.
    if (error instanceof DatabaseUnavailableError) return;
    const line = `lead store: ${store.folder}: ${error instanceof Error ? error.message : String(error)}`;
    if (line !== lastReport.get(task)) log(line);
    lastReport.set(task, line);
  };
}

/** Without any EmailJS the store is the inbox: a lead queued for delivery is filed there. */
async function fileInInbox(
  store: LeadStore,
  outcomes: OutcomeWriter,
  current: (lead: Lead) => Lead,
  stopping: () => boolean,
) {
  for (const stored of store.leads()) {
    if (stopping() || current(stored).state !== "pending") continue;
    const lead = await store.claim(current(stored));
    if (!lead) continue;
    const filed: Lead = { ...lead, state: "inbox" };
    logLeadState(filed);
    await outcomes.write(filed);
  }
}

/** Writes the outcomes of sends EmailJS accepted until none waits (the caller bounds the wait). */
async function writeSentOutcomes(outcomes: OutcomeWriter) {
  let delayMs = 200;
  while (outcomes.holdsSent()) {
    await outcomes.writeDue(true);
    if (outcomes.size() === 0) break;
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    delayMs = Math.min(delayMs * 2, 2_000);
  }
}
