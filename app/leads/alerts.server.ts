/**
 * The team chat's alerts, wired to what the server observes: delivery's give-ups, the age of the
 * delivery queue, the database's reachability and the leads sent directly. The policy (~/destinations/alert-policy) says
 * when and what; `post` queues the text and returns at once, so no lead ever waits for the chat.
 */
import type { DatabaseState } from "~/db/database.server";
import { createAlertPolicy, type OldestPending } from "~/destinations/alert-policy";
import type { LeadCounts } from "~/leads/contract.server";
import type { GaveUp } from "~/leads/delivery/delivery.server";

/** How often the queue's age, the database and the follow-ups due at an hour's end are looked at. */
export const ALERT_CHECK_MS = 15_000;

export interface LeadAlerts {
  /** Delivery gave up on a lead: the first at a destination is told at once (delivery's `onGaveUp`). */
  gaveUp(gaveUp: GaveUp): void;
  /** Starts the checks (an unref'd timer: it never keeps the process alive). */
  start(): void;
  stop(): void;
}

/** The oldest `pending` lead as the policy takes it, from the store's counts. */
export function oldestPendingOf(counts: LeadCounts): OldestPending | null {
  if (counts.pending === 0 || counts.oldestPendingAt === null || counts.oldestPendingId === null) return null;
  return { id: counts.oldestPendingId, since: counts.oldestPendingAt, waiting: counts.pending };
}

/**
 * Alerts of one server process. Give-ups are told by the process whose delivery gave up, and the
 * queue by the deliverer only (it holds the deliverer lock), so replicas on one database send one
 * message; the database's outage and the leads sent directly are told by every replica for
 * itself, since without the database they cannot agree on a sender.
 */
export function createLeadAlerts(options: {
  /** Queues one text for the chat and returns at once (the alert poster's `post`). */
  post: (text: string) => void;
  /** ALERT_AFTER_MINUTES. */
  alertAfterMinutes: number;
  /** This server's name in the database messages. */
  replica: string;
  leads: {
    counts(): Promise<LeadCounts>;
    isDeliverer(): boolean;
    /** Leads this process sent directly since it started (kept nowhere). */
    directlySent(): number;
  };
  /** With DATABASE_URL: its state; null without one. */
  database: { state(): DatabaseState } | null;
  log?: (line: string) => void;
  now?: () => number;
  checkMs?: number;
}): LeadAlerts {
  const { leads, database, checkMs = ALERT_CHECK_MS } = options;
  const log = options.log ?? console.error;
  const policy = createAlertPolicy({
    alertAfterMinutes: options.alertAfterMinutes,
    replica: options.replica,
    now: options.now,
  });
  const post = (texts: readonly string[]) => {
    for (const text of texts) options.post(text);
  };
  let timer: NodeJS.Timeout | undefined;
  let checking = false;
  let countsFailing = false;

  async function check() {
    if (checking) return;
    checking = true;
    try {
      post(policy.tick());
      // `connecting` only lasts until the first connection's answer: it is not an outage yet.
      if (database) post(policy.database(database.state().status !== "unreachable"));
      // Each process tells its own: no other knows them.
      post(policy.direct(leads.directlySent()));
      if (!leads.isDeliverer()) return;
      const counts = await leads.counts();
      countsFailing = false;
      post(policy.queue(oldestPendingOf(counts)));
    } catch (error) {
      // The store says its own faults; this line only says the queue goes unwatched meanwhile.
      if (!countsFailing) {
        log(
          `alerts: cannot count the pending leads (${error instanceof Error ? error.message : String(error)}); the queue alert waits until the store answers`,
        );
      }
      countsFailing = true;
    } finally {
      checking = false;
    }
  }

  return {
    gaveUp({ leadId, destination, attempts, error }) {
      post(
        policy.gaveUp({
          leadId,
          destination,
          attempts,
          error: { ...error, cause: error.cause || "no error was recorded" },
        }),
      );
    },
    start() {
      timer ??= setInterval(() => void check(), checkMs).unref();
    },
    stop() {
      clearInterval(timer);
      timer = undefined;
    },
  };
}
