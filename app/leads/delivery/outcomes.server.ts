/** Delivery outcomes the store could not write yet, kept in memory and written again until it takes them. */
import { type BackoffLimits, backoffMs } from "~/destinations/backoff";
import type { DestinationName } from "~/destinations/lookup.server";
import type { LeadStore } from "~/leads/contract.server";
import { type DeliveryRecord, type Lead, withDelivery } from "~/leads/lead";

/** A lead's outcome that could not be written is written again after 1 s, doubling up to 1 min. */
const WRITE_BACKOFF: BackoffLimits = { firstMs: 1_000, maxMs: 60_000 };

/** One destination's outcome for one lead: its new record (undefined: the lead no longer goes there). */
export interface Outcome {
  /** The lead as delivery holds it, with this outcome applied. */
  lead: Lead;
  destination: DestinationName;
  record: DeliveryRecord | undefined;
}

/** An unwritten outcome and when it is written again. */
interface Retry extends Outcome {
  retryAt: number;
  /** Failed writes in a row: the backoff's count. */
  failures: number;
}

const keyOf = (outcome: Pick<Outcome, "destination"> & { lead: Pick<Lead, "id"> }) =>
  `${outcome.destination}:${outcome.lead.id}`;

/**
 * The delivery outcomes of one process on their way into the store, by lead and destination. An
 * outcome that cannot be written stays in memory (it wins over what the store holds) and is
 * written again with backoff, so a lead a destination accepted is never sent there again by this
 * process, whatever the store does and however long its lease was. A failed attempt kept here
 * still schedules the next one, as a written one would: its lead is left out of the claims until
 * its record's `nextAttemptAt` (from the retry policy), then sent with that record; the newer
 * outcome replaces the one waiting, which is never written after it.
 */
export function createOutcomeWriter(options: {
  store: LeadStore;
  now: () => Date;
  log: (line: string) => void;
}) {
  const { store, now, log } = options;
  /** The unwritten outcomes by `destination:lead id`, with their retry times. */
  const retries = new Map<string, Retry>();

  // One line when writing outcomes starts failing (per cause), one when they are written again.
  let fault = "";
  const failed = (error: unknown) => {
    const cause = error instanceof Error ? error.message : String(error);
    // By code: the message names a temporary file, new at every try.
    const code = (error as NodeJS.ErrnoException).code ?? cause;
    if (code === fault) return;
    fault = code;
    log(
      `lead store: cannot write delivery outcomes to ${store.folder} (${cause}); they are kept in memory (no lead a destination accepted is sent there again, a failed attempt is tried again when due) and written again with backoff until it works`,
    );
  };
  const worked = () => {
    if (fault === "") return;
    fault = "";
    log(`lead store: delivery outcomes are written to ${store.folder} again`);
  };

  /**
   * Writes an outcome and returns the lead as stored now (null: erased meanwhile, nothing to
   * write, then or ever); one that cannot be written stays in memory and is tried again later
   * (undefined). A new outcome (no `previous`) replaces the one waiting for its lead and
   * destination; a waiting one replaced meanwhile is not kept again.
   */
  const write = async (outcome: Outcome, previous?: Retry): Promise<Lead | null | undefined> => {
    const key = keyOf(outcome);
    const replaced = previous ? undefined : retries.get(key);
    if (replaced) retries.delete(key);
    try {
      const stored = await store.saveDelivery(outcome.lead, outcome.destination, outcome.record);
      if (previous && retries.get(key) === previous) retries.delete(key);
      if (retries.size === 0) worked();
      return stored;
    } catch (error) {
      failed(error);
      if (previous && retries.get(key) !== previous) return undefined;
      const last = previous ?? replaced;
      const failures = (last?.failures ?? 0) + 1;
      retries.set(key, {
        ...outcome,
        retryAt: now().getTime() + backoffMs(failures, WRITE_BACKOFF),
        failures,
      });
      return undefined;
    }
  };

  /** Whether a waiting outcome's lead waits for another attempt at `time` (its record pending, not due yet). */
  const waitsForAttempt = (entry: Retry, time: number) =>
    entry.record?.state === "pending" && Date.parse(entry.record.nextAttemptAt) > time;

  /** The retries under way: two loops asking at once share one round. */
  let writing: Promise<void> | undefined;
  const writeDue = async (all: boolean) => {
    const time = now().getTime();
    for (const entry of [...retries.values()]) {
      // Replaced by a newer outcome meanwhile (its lead was sent again): never written after it.
      if (retries.get(keyOf(entry)) !== entry) continue;
      if (all || entry.retryAt <= time) await write(entry, entry);
    }
  };

  return {
    write: (outcome: Outcome) => write(outcome),
    /** Writes the outcomes whose retry is due (all of them with `all`). */
    async writeDue(all = false) {
      while (writing) await writing;
      writing = writeDue(all).finally(() => {
        writing = undefined;
      });
      await writing;
    },
    /** The store takes writes again: every waiting outcome is due now. */
    retryNow() {
      for (const entry of retries.values()) entry.retryAt = 0;
    },
    /** Milliseconds until the first retry is due (Infinity when none waits). */
    firstRetryIn: () => Math.min(...[...retries.values()].map((entry) => entry.retryAt - now().getTime())),
    /** How many unwritten outcomes wait. */
    unwrittenCount: () => retries.size,
    /** Whether an outcome a destination accepted is among the unwritten outcomes. */
    sentUnwritten: () => [...retries.values()].some((entry) => entry.record?.state === "sent"),
    /**
     * The ids of the leads no send to `destination` may claim now: those whose outcome there is
     * unwritten, except a failed attempt whose next one is due (it is sent again with its record
     * from here: `current`).
     */
    unclaimable(destination: DestinationName): ReadonlySet<string> {
      const time = now().getTime();
      return new Set(
        [...retries.values()]
          .filter(
            (entry) =>
              entry.destination === destination &&
              (entry.record?.state !== "pending" || waitsForAttempt(entry, time)),
          )
          .map((entry) => entry.lead.id),
      );
    },
    /** Milliseconds until the next attempt of a failed one kept here is due at `destination` (Infinity when none). */
    nextAttemptIn(destination: DestinationName): number {
      const time = now().getTime();
      const due = [...retries.values()]
        .filter((entry) => entry.destination === destination && entry.record?.state === "pending")
        .map((entry) => Date.parse(entry.record?.nextAttemptAt ?? "") - time)
        // One already due waits for the store to hand it out (a lease): the next scan looks again.
        .filter((ms) => ms > 0);
      return Math.min(...due);
    },
    /** A claimed lead with the records this process holds for it and has not written: what its send starts from. */
    current(lead: Lead): Lead {
      let known = lead;
      for (const entry of retries.values()) {
        if (entry.lead.id === lead.id) known = withDelivery(known, entry.destination, entry.record);
      }
      return known;
    },
    /** The leads with unwritten outcomes, every one of them applied, by lead id: they win over what the store holds. */
    unwrittenOutcomes(): ReadonlyMap<string, Lead> {
      const leads = new Map<string, Lead>();
      for (const entry of retries.values()) {
        const known = leads.get(entry.lead.id);
        leads.set(entry.lead.id, known ? withDelivery(known, entry.destination, entry.record) : entry.lead);
      }
      return leads;
    },
  };
}

export type OutcomeWriter = ReturnType<typeof createOutcomeWriter>;
