import { type Lead, logLeadState } from "~/leads/lead";
import { type DelivererLock, HEARTBEAT_MS } from "~/leads/lock.server";
import { afterAttempt } from "~/leads/schedule";
import type { LeadStore } from "~/leads/store.server";
import { logMailFailure, type MailTransport } from "~/mail/types";

/** How often every process rereads the folder (leads another process stored, operator retries). */
export const SCAN_MS = 5_000;
/** How often the deliverer removes leads past their retention. */
const PRUNE_MS = 60 * 60_000;
/** Without a write for this long, the store's state comes from a write probe. */
export const PROBE_AFTER_MS = 60_000;
/** A lead's outcome that could not be written is written again after 1 s, doubling up to 1 min. */
const FIRST_WRITE_RETRY_MS = 1_000;
const MAX_WRITE_RETRY_MS = 60_000;

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
  /** Whether this process holds the deliverer lock. */
  delivering(): boolean;
  /** Outcomes EmailJS gave that are not written yet (kept in memory, written again with backoff). */
  unwritten(): number;
  /** Every lead as this process knows it (an outcome not yet written wins over its file), oldest first. */
  leads(): Lead[];
}

interface Unwritten {
  lead: Lead;
  retryAt: number;
  delayMs: number;
}

/**
 * Sends stored `pending` leads through `transport`, one at a time, at most one per
 * `intervalMs`, oldest due first. Only the holder of `lock` sends; other processes store and
 * wait. With no transport (no EmailJS configured, or only partly) nothing is sent: the lock
 * holder still applies retention.
 *
 * A lead EmailJS accepted is never sent again by this process, whatever the disk does: the
 * outcome is kept in memory at once, and written until a write succeeds.
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
  const { store, transport, lock, intervalMs, retentionDays, spamRetentionDays, random } = options;
  const now = options.now ?? (() => new Date());
  const { heartbeatMs = HEARTBEAT_MS, scanMs = SCAN_MS } = options;
  const log = options.log ?? console.error;
  const sending = transport?.name === "emailjs" ? transport : null;
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
  const unwritten = new Map<string, Unwritten>();

  /** A lead as this process knows it: an outcome not yet on disk wins over the file. */
  const current = (lead: Lead) => unwritten.get(lead.id)?.lead ?? lead;
  const dueAt = (lead: Lead) => (immediate.has(lead.id) ? 0 : Date.parse(lead.nextAttemptAt));

  const schedule = (delayMs: number) => {
    if (stopping) return;
    clearTimeout(timer);
    timer = setTimeout(pump, Math.max(0, delayMs));
    timer.unref();
  };

  // A broken folder fails every few seconds the same way: each task (sending; the lock and
  // retention; the scan) says it once until its error changes, so two never alternate in the log.
  const lastReport = new Map<"send" | "lock" | "scan", string>();
  const report = (task: "send" | "lock" | "scan") => (error: unknown) => {
    const line = `lead store: ${store.folder}: ${error instanceof Error ? error.message : String(error)}`;
    if (line !== lastReport.get(task)) log(line);
    lastReport.set(task, line);
  };

  // One line when writing outcomes starts failing (per cause), one when they are written again.
  let writeFault = "";
  const writeFailed = (error: unknown) => {
    const cause = error instanceof Error ? error.message : String(error);
    // By code: the message names a temporary file, new at every try.
    const fault = (error as NodeJS.ErrnoException).code ?? cause;
    if (fault === writeFault) return;
    writeFault = fault;
    log(
      `lead store: cannot write delivery outcomes to ${store.folder} (${cause}); they are kept in memory (no lead EmailJS accepted is sent again) and written again with backoff until it works`,
    );
  };
  const writeWorked = () => {
    if (writeFault === "") return;
    writeFault = "";
    log(`lead store: delivery outcomes are written to ${store.folder} again`);
  };

  /** Writes an outcome; one that cannot be written stays in memory and is tried again later. */
  async function persist(lead: Lead, previous: Unwritten | undefined) {
    try {
      // False when the lead was erased meanwhile: nothing to write, then or ever.
      await store.save(lead);
      unwritten.delete(lead.id);
      if (unwritten.size === 0) writeWorked();
    } catch (error) {
      const delayMs = previous ? Math.min(previous.delayMs * 2, MAX_WRITE_RETRY_MS) : FIRST_WRITE_RETRY_MS;
      unwritten.set(lead.id, { lead, retryAt: now().getTime() + delayMs, delayMs });
      writeFailed(error);
    }
  }

  async function writeDue(all = false) {
    const time = now().getTime();
    for (const entry of [...unwritten.values()]) {
      if (all || entry.retryAt <= time) await persist(entry.lead, entry);
    }
  }

  async function send(lead: Lead, via: MailTransport) {
    lastSendAt = now().getTime();
    const result = await via.send(lead.enquiry, lead.source);
    immediate.delete(lead.id);
    const updated = afterAttempt(lead, result, now(), random);
    if (updated.state === "sent") accepted.add(lead.id);
    if (!result.ok) logMailFailure(via.name, result);
    if (updated.state !== lead.state) logLeadState(updated);
    await persist(updated, undefined);
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
      await writeDue();
      if (!owner || !sending) return;
      const lead = next();
      const time = now().getTime();
      const firstRetry = Math.min(...[...unwritten.values()].map((entry) => entry.retryAt - time));
      if (!lead) {
        if (unwritten.size > 0) schedule(Math.min(firstRetry, scanMs));
        return;
      }
      const wait = Math.max(dueAt(lead) - time, lastSendAt + intervalMs - time);
      if (wait > 0) return schedule(Math.min(wait, firstRetry, scanMs));
      if (!(await lock.holds())) {
        owner = false;
        log(`lead store: another process took over delivery from ${store.folder}; this one waits`);
        return;
      }
      // Erased while it waited (`npm run leads -- erase`): never sent, never written back.
      if (await store.isErased(lead)) {
        immediate.delete(lead.id);
        schedule(0);
        return;
      }
      // Checked after the last await before the send: a SIGTERM during the checks starts no send.
      if (stopping) return;
      await send(lead, sending);
      schedule(intervalMs);
    } catch (error) {
      report("send")(error);
      schedule(intervalMs);
    }
  }

  async function takeTurn() {
    try {
      if (owner) {
        if (!(await lock.heartbeat())) {
          owner = false;
          log(`lead store: another process took over delivery from ${store.folder}; this one waits`);
        }
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
        await store.prune({ days: retentionDays, spamDays: spamRetentionDays });
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
    // While writes fail, a probe every scan tells the moment the folder takes them again.
    const written = store.lastWrite();
    if (!written?.ok || now().getTime() - written.at >= PROBE_AFTER_MS) await store.probe();
    if (unwritten.size > 0 && store.lastWrite()?.ok) {
      for (const entry of unwritten.values()) entry.retryAt = 0;
    }
    if ((scanned && owner) || unwritten.size > 0) schedule(0);
  }

  const every = (ms: number, task: () => Promise<void>) => {
    const interval = setInterval(task, ms);
    interval.unref();
    timers.push(interval);
  };

  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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
      let delayMs = 200;
      while ([...unwritten.values()].some((entry) => entry.lead.state === "sent")) {
        await writeDue(true);
        if (unwritten.size === 0) break;
        await sleep(delayMs);
        delayMs = Math.min(delayMs * 2, 2_000);
      }
      for (const interval of timers) clearInterval(interval);
      timers.length = 0;
      if (owner) await lock.release().catch(report("lock"));
      owner = false;
    },
    delivering: () => owner,
    unwritten: () => unwritten.size,
    leads: () => store.leads().map(current),
  };
}
