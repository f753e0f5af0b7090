/** Delivery: one loop per destination sending pending leads while this process holds the deliverer lock. */
import { DESTINATIONS, type DestinationName } from "~/destinations/lookup.server";
import type { LeadStore } from "~/leads/contract.server";
import { type DelivererLock, HEARTBEAT_MS } from "~/leads/deliverer-lock";
import { createFaultReport } from "~/leads/delivery/faults.server";
import { createOutcomeWriter, type OutcomeWriter } from "~/leads/delivery/outcomes.server";
import { createDelivererOwnership } from "~/leads/delivery/ownership.server";
import {
  createLeadSender,
  type DestinationSender,
  type GaveUp,
  logLeadChange,
} from "~/leads/delivery/sender.server";
import { type Lead, withDelivery } from "~/leads/lead";

export type { DestinationSender, GaveUp } from "~/leads/delivery/sender.server";

/**
 * How delivery reaches one destination, as server/lead-destinations.ts wires it from the configuration:
 * its sender, or `held` when it is partly configured (EmailJS without one of its ids), so its
 * pending leads wait until it is fixed. A destination without a route is not configured: a
 * lead queued for it (an operator's release or retry) no longer goes there.
 */
export type DestinationRoute = DestinationSender | "held";
export type DestinationRoutes = Partial<Record<DestinationName, DestinationRoute>>;

/** The destinations a new lead goes to: those configured, held ones included. */
export function configuredDestinations(routes: DestinationRoutes): DestinationName[] {
  return DESTINATIONS.filter((name) => routes[name] !== undefined);
}

/** How often every process rereads the store (leads another process stored, operator retries). */
export const SCAN_MS = 5_000;
/** Without a write for this long, the store's state comes from a write probe. */
export const PROBE_AFTER_MS = 60_000;

export interface Delivery {
  /** Starts the timers (all unref'd: they never keep the process alive). */
  start(): void;
  /** A lead was just stored: deliver now if this process is the deliverer and idle. */
  wake(): void;
  /**
   * Starts no new send; resolves once the outcomes of the sends in flight are written (the caller
   * bounds the wait: SHUTDOWN_DEADLINE), then lets go of the lock.
   */
  stop(): Promise<void>;
  /** How many unwritten outcomes (destinations' answers the store has not taken yet) wait in memory. */
  unwrittenCount(): number;
  /** The leads with unwritten outcomes, by lead id: they win over what the store holds. */
  unwrittenOutcomes(): ReadonlyMap<string, Lead>;
  /** Whether this process holds the deliverer lock now (and so sends, and tells what it sends). */
  isDeliverer(): boolean;
}

/**
 * Sends stored leads to each destination of `routes` with its own loop: its own pace (at most one
 * send per `intervalMs`), claims, sends and retries, soonest due first, each send claiming its lead
 * from the store right before it. A hang or a failure at one destination never delays or repeats
 * another. Only the holder of `lock` sends; other processes store and wait. The holder also
 * applies retention, gives leads stored by a release before destinations theirs, and drops the
 * destinations of queued leads that are not configured (with none left, a lead is `inbox`).
 */
export function createDelivery(options: {
  store: LeadStore;
  routes: DestinationRoutes;
  lock: DelivererLock;
  intervalMs: number;
  retentionDays: number;
  /** Days a quarantined lead is kept (ENQUIRY_SPAM_RETENTION_DAYS). */
  spamRetentionDays: number;
  /** Told once each time a destination gives up on a lead by an attempt (never on a replay). */
  onGaveUp?: (gaveUp: GaveUp) => void;
  now?: () => Date;
  random?: () => number;
  log?: (line: string) => void;
  heartbeatMs?: number;
  scanMs?: number;
}): Delivery {
  const { store, routes, lock, intervalMs } = options;
  const now = options.now ?? (() => new Date());
  const { heartbeatMs = HEARTBEAT_MS, scanMs = SCAN_MS } = options;
  const log = options.log ?? console.error;
  const configured = configuredDestinations(routes);
  const outcomes = createOutcomeWriter({ store, now, log });
  const report = createFaultReport(store, log);
  let stopping = false;
  const timers: NodeJS.Timeout[] = [];

  async function scan(): Promise<boolean> {
    try {
      await store.scan();
      return true;
    } catch (error) {
      report("scan")(error);
      return false;
    }
  }

  const loops = DESTINATIONS.map((destination) =>
    createDestinationLoop({
      destination,
      route: routes[destination],
      store,
      lock,
      outcomes,
      intervalMs,
      scanMs,
      now,
      log,
      random: options.random,
      onGaveUp: options.onGaveUp,
      report,
      owns: () => ownership.owns(),
      lost: () => ownership.lost(),
      stopping: () => stopping,
    }),
  );
  const scheduleAll = () => {
    for (const loop of loops) loop.schedule(0);
  };

  /** Leads a release before destinations stored get theirs (PostgreSQL during a rolling deploy). */
  const adopt = () => store.adopt(configured).catch(report("scan"));

  const ownership = createDelivererOwnership({
    store,
    lock,
    retention: { days: options.retentionDays, spamDays: options.spamRetentionDays },
    now,
    log,
    report,
    scan,
    stopping: () => stopping,
    free: () => loops.every((loop) => !loop.running()),
    async onAcquired() {
      await adopt();
      await store.hurryPending();
      scheduleAll();
    },
  });

  async function rescan() {
    const scanned = await scan();
    // While writes fail, a probe every scan tells the moment the store takes them again.
    const written = store.lastWrite();
    if (!written?.ok || now().getTime() - written.at >= PROBE_AFTER_MS) await store.probe();
    if (outcomes.unwrittenCount() > 0 && store.lastWrite()?.ok) outcomes.retryNow();
    if (scanned && ownership.owns()) await adopt();
    if ((scanned && ownership.owns()) || outcomes.unwrittenCount() > 0) scheduleAll();
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
      if (!ownership.owns()) return;
      for (const loop of loops) loop.wake();
    },
    async stop() {
      stopping = true;
      // The heartbeat goes on while the sends in flight finish and their outcomes are written.
      await Promise.all(loops.map((loop) => loop.stop()));
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

/**
 * One destination's loop: claims its due leads one at a time and sends them at its own pace; for
 * a destination not configured, drops it from the leads queued for it; for a held one, nothing.
 */
function createDestinationLoop(options: {
  destination: DestinationName;
  route: DestinationRoute | undefined;
  store: LeadStore;
  lock: DelivererLock;
  outcomes: OutcomeWriter;
  intervalMs: number;
  scanMs: number;
  now: () => Date;
  log: (line: string) => void;
  random?: () => number;
  onGaveUp?: (gaveUp: GaveUp) => void;
  report: ReturnType<typeof createFaultReport>;
  owns: () => boolean;
  lost: () => void;
  stopping: () => boolean;
}) {
  const { destination, route, store, lock, outcomes, intervalMs, scanMs, now, report, stopping } = options;
  const sender =
    typeof route === "function"
      ? createLeadSender({
          destination,
          send: route,
          outcomes,
          now,
          random: options.random,
          onGaveUp: options.onGaveUp,
          log: options.log,
        })
      : null;
  let busy = false;
  /** The turn under way (a send and the write of its outcome), if any. */
  let running: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;

  const schedule = (delayMs: number) => {
    if (stopping()) return;
    clearTimeout(timer);
    timer = setTimeout(pump, Math.max(0, delayMs));
    timer.unref();
  };

  function pump() {
    if (busy || stopping()) return;
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
      if (!options.owns() || route === "held") return;
      if (!sender) return await dropDestination(destination, store, outcomes, stopping);
      const time = now().getTime();
      const wait = sender.lastSendAt() + intervalMs - time;
      if (wait > 0) return schedule(Math.min(wait, outcomes.firstRetryIn(), scanMs));
      if (!(await lock.holds())) return options.lost();
      // Claimed right before its send, so the claim outlives it; never a lead whose outcome
      // waits, unless it is a failed attempt whose next one is due.
      const claim = await store.claimNext(destination, outcomes.unclaimable(destination));
      if (!claim.lead) {
        // Nothing due, or what is due is held by another claim for now: look again when the
        // next lead is due (in the store, or a failed attempt kept in memory), at the latest at
        // the next scan.
        const dueIn = claim.dueAt !== null && claim.dueAt > time ? claim.dueAt - time : scanMs;
        return schedule(
          Math.min(dueIn, outcomes.nextAttemptIn(destination), outcomes.firstRetryIn(), scanMs),
        );
      }
      // Recorded as begun, durably, before it goes out: an erasure from now on tells this
      // destination, even while the send waits for its answer. A lead erased meanwhile is not sent.
      if (!(await store.beginAttempt(claim.lead, destination))) return schedule(0);
      // Checked after the last await before the send: a SIGTERM during the checks starts no send.
      if (stopping()) return;
      // Its record as this process knows it: an attempt whose outcome is unwritten counts.
      await sender.send(outcomes.current(claim.lead));
      schedule(intervalMs);
    } catch (error) {
      report("send")(error);
      schedule(intervalMs);
    }
  }

  return {
    schedule,
    /** Whether a turn (a send and its outcome's write) is under way. */
    running: () => running !== undefined,
    wake() {
      if (!busy) schedule(Math.max(0, (sender?.lastSendAt() ?? 0) + intervalMs - now().getTime()));
    },
    async stop() {
      clearTimeout(timer);
      await running;
    },
  };
}

/**
 * A destination that is not configured (EmailJS without any of its variables, the webhook
 * without its two): the leads queued for it (an operator's release or retry) no longer go there;
 * a lead with no destination left is filed in the inbox.
 */
async function dropDestination(
  destination: DestinationName,
  store: LeadStore,
  outcomes: OutcomeWriter,
  stopping: () => boolean,
) {
  // Each lead once per round, whatever a store that did not take the write answers next.
  const done = new Set<string>();
  while (!stopping()) {
    const { lead } = await store.claimNext(
      destination,
      new Set([...outcomes.unclaimable(destination), ...done]),
    );
    if (!lead) return;
    done.add(lead.id);
    const dropped = withDelivery(lead, destination, undefined);
    logLeadChange(lead, await outcomes.write({ lead: dropped, destination, record: undefined }), dropped);
  }
}

/** Writes the outcomes of sends a destination accepted until none waits (the caller bounds the wait). */
async function writeSentOutcomes(outcomes: OutcomeWriter) {
  let delayMs = 200;
  while (outcomes.sentUnwritten()) {
    await outcomes.writeDue(true);
    if (outcomes.unwrittenCount() === 0) break;
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    delayMs = Math.min(delayMs * 2, 2_000);
  }
}
