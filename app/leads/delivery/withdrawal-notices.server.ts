/**
 * The withdrawal notices' loop: tells each destination that hears of erasures (the webhook's
 * `lead.erased`) and the team chat of every lead a withdrawal erased, in the background, with the
 * lead retry policy, until each took it.
 */
import { DatabaseUnavailableError } from "~/db/database.server";
import type { DeliveryResult } from "~/destinations/destination";
import { SCAN_MS } from "~/leads/delivery/delivery.server";
import type { DeliveryRecord } from "~/leads/lead";
import { afterAttempt } from "~/leads/retry-policy";
import type { NoticeTarget, Withdrawal, WithdrawalStore } from "~/leads/withdrawals.server";

/** One attempt to tell a target of a withdrawn lead, as this process reaches it. */
export type WithdrawalTeller = (withdrawal: Withdrawal) => Promise<DeliveryResult>;
export type WithdrawalTellers = Partial<Record<NoticeTarget, WithdrawalTeller>>;

/** A target gave up on hearing of a withdrawn lead (refused, or 72 h of retries). */
export interface NoticeGaveUp {
  withdrawal: Withdrawal;
  target: NoticeTarget;
  attempts: number;
  cause: string;
}

/** How long the loop waits after the store failed, before it looks again. */
const AFTER_FAULT_MS = SCAN_MS;

export interface WithdrawalNotices {
  start(): void;
  /** A withdrawal was just recorded here: tell at once. */
  wake(): void;
  /** Starts no new attempt; resolves once the one in flight is written. */
  stop(): Promise<void>;
}

/**
 * Tells what the store says is due, one notice at a time, at the targets this process reaches
 * (`tellers`); another process's notices, or one the store has not reached yet, are found at the
 * next look (every SCAN_MS). `mayTell` says whether this process tells now: with the data folder
 * only the deliverer (its lock); with PostgreSQL every replica, the row lock of each notice
 * deciding which one sends it. Once a day's worth of looks, settled withdrawals are pruned.
 */
export function createWithdrawalNotices(options: {
  store: WithdrawalStore;
  tellers: WithdrawalTellers;
  mayTell: () => boolean;
  onGaveUp?: (gaveUp: NoticeGaveUp) => void;
  now?: () => Date;
  log?: (line: string) => void;
  scanMs?: number;
}): WithdrawalNotices {
  const { store, tellers, mayTell, now = () => new Date(), log = console.error, scanMs = SCAN_MS } = options;
  const targets = Object.keys(tellers) as NoticeTarget[];
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = true;
  let again = false;
  let fault = "";
  let prunedAt = 0;

  const schedule = (delayMs: number) => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(run, Math.max(0, delayMs)).unref();
  };

  const tell = async (withdrawal: Withdrawal, target: NoticeTarget, record: DeliveryRecord) => {
    // The store hands out only notices of `targets`, the tellers' own keys.
    const teller = tellers[target];
    if (!teller) return record;
    const after = afterAttempt(record, await teller(withdrawal), now());
    log(
      JSON.stringify({
        event: "withdrawal notice",
        id: withdrawal.leadId,
        target,
        state: after.state,
        attempts: after.attempts,
        ...(after.lastError ? { lastError: after.lastError } : {}),
      }),
    );
    if (after.state === "failed") {
      options.onGaveUp?.({ withdrawal, target, attempts: after.attempts, cause: after.lastError ?? "" });
    }
    return after;
  };

  /** Tells every notice due now, then sleeps until the next one is due (at most scanMs). */
  const round = async () => {
    if (!mayTell() || targets.length === 0) return scanMs;
    for (;;) {
      if (stopped) return scanMs;
      const outcome = await store.tellNext(targets, tell);
      if (outcome.told) continue;
      if (now().getTime() - prunedAt > 24 * 60 * 60_000) {
        prunedAt = now().getTime();
        await store.prune();
      }
      return outcome.dueAt === null ? scanMs : Math.min(scanMs, outcome.dueAt - now().getTime());
    }
  };

  function run() {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = round()
      .then(
        (waitMs) => {
          if (fault) log("withdrawals: the store takes notices again");
          fault = "";
          return waitMs;
        },
        (error: unknown) => {
          const cause = error instanceof Error ? error.message : String(error);
          if (cause !== fault && !(error instanceof DatabaseUnavailableError)) {
            log(
              `withdrawals: cannot tell withdrawn leads now (${cause}); tried again in ${AFTER_FAULT_MS / 1000} s`,
            );
          }
          fault = cause;
          return AFTER_FAULT_MS;
        },
      )
      .then((waitMs) => {
        running = undefined;
        if (again) {
          again = false;
          schedule(0);
        } else schedule(waitMs);
      });
  }

  return {
    start() {
      stopped = false;
      schedule(0);
    },
    wake() {
      if (stopped) return;
      if (running) again = true;
      else schedule(0);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
