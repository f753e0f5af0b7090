/** Delivery outcomes the store could not write yet, kept in memory and written again until it takes them. */
import type { LeadStore } from "~/leads/contract.server";
import type { Lead } from "~/leads/lead";

/** A lead's outcome that could not be written is written again after 1 s, doubling up to 1 min. */
const FIRST_WRITE_RETRY_MS = 1_000;
const MAX_WRITE_RETRY_MS = 60_000;

/** An unwritten outcome and when it is written again. */
interface Retry {
  lead: Lead;
  retryAt: number;
  delayMs: number;
}

/**
 * The delivery outcomes of one process on their way into the store. An outcome that cannot be
 * written stays in memory (it wins over what the store holds, and its lead is claimed by this
 * process for no other send) and is written again with backoff, so a lead EmailJS accepted is
 * never sent again by this process, whatever the store does and however long its lease was.
 */
export function createOutcomeWriter(options: {
  store: LeadStore;
  now: () => Date;
  log: (line: string) => void;
}) {
  const { store, now, log } = options;
  /** The unwritten outcomes by lead id, with their retry times. */
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
      `lead store: cannot write delivery outcomes to ${store.folder} (${cause}); they are kept in memory (no lead EmailJS accepted is sent again) and written again with backoff until it works`,
    );
  };
  const worked = () => {
    if (fault === "") return;
    fault = "";
    log(`lead store: delivery outcomes are written to ${store.folder} again`);
  };

  /** Writes an outcome; one that cannot be written stays in memory and is tried again later. */
  const write = async (lead: Lead, previous?: Retry) => {
    try {
      // False when the lead was erased meanwhile: nothing to write, then or ever.
      await store.save(lead);
      retries.delete(lead.id);
      if (retries.size === 0) worked();
    } catch (error) {
      const delayMs = previous ? Math.min(previous.delayMs * 2, MAX_WRITE_RETRY_MS) : FIRST_WRITE_RETRY_MS;
      retries.set(lead.id, { lead, retryAt: now().getTime() + delayMs, delayMs });
      failed(error);
    }
  };

  return {
    write: (lead: Lead) => write(lead),
    /** Writes the outcomes whose retry is due (all of them with `all`). */
    async writeDue(all = false) {
      const time = now().getTime();
      for (const entry of [...retries.values()]) {
        if (all || entry.retryAt <= time) await write(entry.lead, entry);
      }
    },
    /** The store takes writes again: every waiting outcome is due now. */
    retryNow() {
      for (const entry of retries.values()) entry.retryAt = 0;
    },
    /** Milliseconds until the first retry is due (Infinity when none waits). */
    firstRetryIn: () => Math.min(...[...retries.values()].map((entry) => entry.retryAt - now().getTime())),
    /** How many unwritten outcomes wait. */
    unwrittenCount: () => retries.size,
    /** Whether an outcome EmailJS accepted is among the unwritten outcomes. */
    sentUnwritten: () => [...retries.values()].some((entry) => entry.lead.state === "sent"),
    /** The ids of the leads whose outcome is unwritten: no send claims them again. */
    unwrittenIds: (): ReadonlySet<string> => new Set(retries.keys()),
    /** The unwritten outcomes by lead id: they win over what the store holds. */
    unwrittenOutcomes: (): ReadonlyMap<string, Lead> =>
      new Map([...retries].map(([id, entry]) => [id, entry.lead])),
  };
}

export type OutcomeWriter = ReturnType<typeof createOutcomeWriter>;
