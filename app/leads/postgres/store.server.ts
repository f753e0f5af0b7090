/** The PostgreSQL lead store: the `leads` and `erasures` tables, behind the lead store contract. */
import { randomUUID } from "node:crypto";
import type { PoolClient } from "pg";
import type { Database } from "~/db/database.server";
import { describeDatabaseError } from "~/db/error-words.server";
import type { DestinationName } from "~/destinations/lookup.server";
import type { Enquiry } from "~/lead-parts/enquiry";
import {
  type AddOutcome,
  countLeads,
  countOldestPending,
  type LeadCounts,
  type LeadOrder,
  type LeadStore,
  type LeadStoreOptions,
  MAX_LEADS,
  MAX_SPAM_PER_REASON,
  type Retention,
  StoreFullError,
  type WriteOutcome,
} from "~/leads/contract.server";
import {
  type DeliveryRecord,
  LEAD_STATES,
  type Lead,
  type LeadState,
  logLeadState,
  newLead,
} from "~/leads/lead";
import { eraseLeadRow, isErasedRow } from "~/leads/postgres/erasure.server";
import { insertLeadOnce } from "~/leads/postgres/insert.server";
import {
  deliveryValues,
  LEAD_COLUMNS,
  LEAD_SELECT,
  LEAD_STATE_SQL,
  LEAD_VALUES,
  type LeadRow,
  leadFromRow,
  leadsFromRows,
  leadValues,
  UPDATE_DELIVERY,
  writeOtherDeliveries,
} from "~/leads/postgres/rows.server";

/**
 * How long a claimed lead is another deliverer's to leave alone: three EmailJS time limits, so
 * the claim outlives the one send it covers even when the deliverer lost its lock mid-send. A
 * deliverer that dies in the middle of a send leaves its lead claimed; the next one sends it
 * again only once the lease has passed (at most one duplicate per destination per crash).
 */
export const LEASE_SECONDS = 30;
/** What a claim lasts beyond the send's time limit at least: the outcome's write after the answer. */
export const LEASE_MARGIN_MS = 10_000;

/** Where one destination's delivery of a lead lives: EmailJS's in the row's own columns, the others' in `lead_deliveries`. */
const QUEUES = {
  emailjs: { table: "leads", id: "id", destination: "TRUE", order: "next_attempt_at, received_at, id" },
  other: {
    table: "lead_deliveries",
    id: "lead_id",
    destination: "destination = $4",
    order: "next_attempt_at, lead_id",
  },
};

/** The PostgreSQL store: the contract, and the inserts of a lead made before it is stored. */
export interface PostgresLeadStore extends LeadStore {
  /**
   * Stores `lead` as `addLead` does, but asks `stillWanted` once the insert is done, right before
   * its COMMIT: false rolls it back (`given up`), so a lead its caller stopped waiting for and
   * kept elsewhere (the spool) or sent directly never lands late (~/leads/lead-service.server).
   */
  addLeadWhileWanted(lead: Lead, stillWanted: () => boolean): Promise<AddOutcome | "given up">;
  /** Stores a lead from the spool, outside the cap, once: nothing when its id is held or was erased. */
  importLead(lead: Lead): Promise<AddOutcome>;
}

/**
 * The lead store in PostgreSQL (DATABASE_URL): one row per lead in `leads`, one row per erased
 * lead id in `erasures`. Every replica reads and writes the same rows; PostgreSQL's row locks
 * and transactions decide what the folder store decides with files and renames. Times a lead
 * carries come from this process's clock (as in the folder); leases come from the database's.
 */
export function createPostgresLeadStore(
  options: LeadStoreOptions & {
    database: Database;
    leaseSeconds?: number;
    /** Counts a lead the first time it is inserted, in the insert's transaction (the campaign counts). */
    countLead?: (client: PoolClient, lead: Lead) => Promise<void>;
  },
): PostgresLeadStore {
  const { database, leaseSeconds = LEASE_SECONDS, now = () => new Date(), log = console.error } = options;
  const { maxLeads = MAX_LEADS, maxSpamPerReason = MAX_SPAM_PER_REASON, onWrite = () => {} } = options;
  const writes = createWriteRecord(now, onWrite);
  const written = writes.run;

  const insertIn = async (client: PoolClient, lead: Lead, capped: boolean): Promise<AddOutcome> => {
    const outcome = await insertLeadOnce(client, lead, capped ? maxLeads : undefined);
    if (outcome === "full") throw new StoreFullError(maxLeads);
    if (outcome === "inserted") await options.countLead?.(client, lead);
    return outcome === "inserted" ? "stored" : outcome;
  };
  /** Inserts `lead` in a transaction of its own; `stillWanted`, asked right before COMMIT, may roll it back. */
  const insert = async (lead: Lead, capped: boolean, stillWanted = () => true) => {
    const outcome = await written(() =>
      database.transaction(async (client) => {
        const inserted = await insertIn(client, lead, capped);
        if (!stillWanted()) throw new GivenUpError();
        return inserted;
      }),
    );
    if (outcome === "stored") logLeadState(lead);
    return outcome;
  };

  return {
    folder: "the database",

    async add(enquiry, destinations, source, privacyNotice) {
      const lead = newLead({ id: randomUUID(), enquiry, destinations, at: now(), source, privacyNotice });
      await insert(lead, true);
      return lead;
    },

    addLead: (lead) => insert(lead, true),

    addLeadWhileWanted: (lead, stillWanted) =>
      insert(lead, true, stillWanted).catch((error: unknown) => {
        if (error instanceof GivenUpError) return "given up" as const;
        throw error;
      }),

    importLead: (lead) => insert(lead, false),

    async quarantine(enquiry: Enquiry, reason, source, privacyNotice) {
      const lead = newLead({
        id: randomUUID(),
        enquiry,
        destinations: [],
        reason,
        at: now(),
        source,
        privacyNotice,
      });
      await insert(lead, false);
      await capQuarantine(database, reason, maxSpamPerReason, log);
      return lead;
    },

    async save(lead) {
      // An erased lead has no row: the update finds nothing, and nothing is written back.
      return written(() =>
        database.transaction(async (client) => {
          const { rowCount } = await client.query(
            `UPDATE leads SET (${LEAD_COLUMNS}, lease_until) = (${LEAD_VALUES}, NULL) WHERE id = $1`,
            leadValues(lead),
          );
          if (rowCount === 0) return false;
          await writeOtherDeliveries(client, lead);
          return true;
        }),
      );
    },

    async saveDelivery(lead, destination, record) {
      // Only this destination's record, whatever this process last read of the others.
      return written(async () => {
        const { rowCount } = await writeDelivery(database, lead.id, destination, record);
        if (rowCount === 0) return null;
        const { rows } = await database.query<LeadRow>(`SELECT ${LEAD_SELECT} FROM leads l WHERE l.id = $1`, [
          lead.id,
        ]);
        return rows[0] ? leadFromRow(rows[0]) : null;
      });
    },

    erase: (lead) => eraseLeadRow(database, lead.id, now()),

    // The claim is both the record and the check: its lease, committed before this, tells an
    // erasure from then on that a send began, and an erasure before it left no row to claim.
    beginAttempt: async () => true,

    async isErased(lead) {
      return isErasedRow(database, lead.id);
    },

    async has(id) {
      // Erasure deletes the row in the transaction that records it: a row is a lead still kept.
      const { rows } = await database.query("SELECT 1 FROM leads WHERE id = $1", [id]);
      return rows.length > 0;
    },

    async claimNext(destination, except) {
      // EmailJS's queue is the rows' own columns, as the release before reads them; the others'
      // are their `lead_deliveries` rows, each with its own lease.
      const queue = destination === "emailjs" ? QUEUES.emailjs : QUEUES.other;
      const { table, id } = queue;
      const skipped = [...except];
      for (;;) {
        // One statement: the row lock of SKIP LOCKED keeps two replicas off one lead while they
        // claim, the lease afterwards while its send runs.
        const { rows } = await database.query<LeadRow>(
          `WITH claimed AS (
             UPDATE ${table} SET lease_until = now() + make_interval(secs => $3)
             WHERE ${id} = (
               SELECT ${id} FROM ${table}
               WHERE state = 'pending' AND ${queue.destination} AND next_attempt_at <= $1
                 AND NOT (${id} = ANY($2::uuid[])) AND (lease_until IS NULL OR lease_until <= now())
               ORDER BY ${queue.order}
               LIMIT 1 FOR UPDATE SKIP LOCKED) AND ${queue.destination}
             RETURNING ${id} AS claimed_id)
           SELECT ${LEAD_SELECT} FROM leads l JOIN claimed c ON c.claimed_id = l.id`,
          [now().toISOString(), skipped, leaseSeconds, ...(destination === "emailjs" ? [] : [destination])],
        );
        const row = rows[0];
        if (!row) break;
        const lead = leadFromRow(row);
        if (lead?.destinations[destination]) return { lead };
        // A row this release cannot read stays claimed until its lease passes, and is left alone.
        skipped.push(row.id);
      }
      const { rows } = await database.query<{ due: Date | null }>(
        `SELECT min(next_attempt_at) AS due FROM ${table}
         WHERE state = 'pending' AND ${queue.destination.replace("$4", "$2")} AND NOT (${id} = ANY($1::uuid[]))
           AND (lease_until IS NULL OR lease_until <= now())`,
        [skipped, ...(destination === "emailjs" ? [] : [destination])],
      );
      const due = rows[0]?.due;
      return { lead: null, dueAt: due ? due.getTime() : null };
    },

    async hurryPending() {
      await written(() =>
        database.transaction(async (client) => {
          const values = [now().toISOString()];
          await client.query(
            `UPDATE leads SET next_attempt_at = $1 WHERE state = 'pending' AND next_attempt_at > $1`,
            values,
          );
          await client.query(
            `UPDATE lead_deliveries SET next_attempt_at = $1 WHERE state = 'pending' AND next_attempt_at > $1`,
            values,
          );
        }),
      );
    },

    async adopt(configured) {
      const others = configured.filter((name) => name !== "emailjs");
      // One statement: a lead gets its destinations and their rows at once, and only while it
      // has none (a second replica skips it), so each gets its webhook delivery once.
      await written(() =>
        database.query(
          `WITH adopted AS (
             UPDATE leads SET destinations =
               (CASE WHEN state IN ('pending', 'sent', 'failed') THEN ARRAY['emailjs'] ELSE '{}'::text[] END)
               || (CASE WHEN state = 'spam' THEN '{}'::text[] ELSE $1::text[] END)
             WHERE id IN (SELECT id FROM leads WHERE destinations IS NULL FOR UPDATE SKIP LOCKED)
             RETURNING id, state)
           INSERT INTO lead_deliveries (lead_id, destination, state, attempts, next_attempt_at, queued_at)
           SELECT adopted.id, name, 'pending', 0, $2, $2 FROM adopted CROSS JOIN unnest($1::text[]) AS name
           WHERE adopted.state <> 'spam'
           ON CONFLICT DO NOTHING`,
          [others, now().toISOString()],
        ),
      );
    },

    async scan() {
      await database.query("SELECT 1");
    },

    async list() {
      const { rows } = await database.query<LeadRow>(
        `SELECT ${LEAD_SELECT} FROM leads l ORDER BY l.received_at, l.id`,
      );
      return leadsFromRows(rows);
    },

    each: (since, order) => eachRow(database, since, order),

    counts: (unwrittenOutcomes) => countRows(database, unwrittenOutcomes),

    prune: (retention) => pruneRows(database, retention, now()),

    lastWrite: writes.last,

    async probe() {
      await written(() => database.query("SELECT 1")).catch(() => undefined);
      return writes.last() as WriteOutcome;
    },
  };
}

/** Writes one destination's record of lead `id` (undefined: drops it); no row changed when the lead is gone. */
function writeDelivery(
  database: Database,
  id: string,
  destination: DestinationName,
  record: DeliveryRecord | undefined,
) {
  if (destination === "emailjs") {
    return record
      ? database.query(
          `UPDATE leads SET (state, attempts, last_error, next_attempt_at, queued_at, lease_until) =
             ($2, $3, $4, $5, $6, NULL) WHERE id = $1`,
          [id, record.state, record.attempts, record.lastError, record.nextAttemptAt, record.queuedAt],
        )
      : database.query(
          `UPDATE leads SET state = 'inbox', lease_until = NULL,
             destinations = array_remove(destinations, 'emailjs') WHERE id = $1`,
          [id],
        );
  }
  if (record) return database.query(UPDATE_DELIVERY, deliveryValues(id, destination, record));
  return database.query(
    `WITH dropped AS (DELETE FROM lead_deliveries WHERE lead_id = $1 AND destination = $2 RETURNING lead_id)
     UPDATE leads SET destinations = array_remove(destinations, $2) WHERE id IN (SELECT lead_id FROM dropped)`,
    [id, destination],
  );
}

/** Runs writes and records how the last one went (for `lastWrite` and the server's usable/unusable line). */
function createWriteRecord(now: () => Date, onWrite: (error: unknown) => void) {
  let last: WriteOutcome | null = null;
  return {
    last: () => last,
    async run<T>(work: () => Promise<T>): Promise<T> {
      try {
        const result = await work();
        last = { ok: true, at: now().getTime() };
        onWrite(null);
        return result;
      } catch (error) {
        // The database answered; its caller chose to roll back.
        if (error instanceof GivenUpError) {
          last = { ok: true, at: now().getTime() };
          onWrite(null);
          throw error;
        }
        last = {
          ok: false,
          at: now().getTime(),
          error: describeDatabaseError(error),
        };
        onWrite(error);
        throw error;
      }
    },
  };
}

/** An insert its caller no longer wanted when it was done: rolled back. */
class GivenUpError extends Error {
  constructor() {
    super("the insert was given up before it committed");
    this.name = "GivenUpError";
  }
}

/** Rows read at once by `each`: a page of leads in memory, whatever the table holds. */
const PAGE_ROWS = 500;

/**
 * The leads received at or after `since`, oldest first, a page at a time: each page starts after
 * the last row of the one before (keyset on the index `leads_received`), so no statement or
 * transaction stays open while the caller works, and a lead added meanwhile never shifts a page.
 */
async function* eachRow(
  database: Database,
  since?: Date,
  order: LeadOrder = "oldest first",
): AsyncGenerator<Lead> {
  const [past, direction] = order === "oldest first" ? [">", "ASC"] : ["<", "DESC"];
  // The last row's exact time, as text: a Date would drop its microseconds and read it again.
  let after = null as { at: string; id: string } | null;
  for (;;) {
    const { rows }: { rows: (LeadRow & { page_at: string })[] } = await database.query(
      `SELECT ${LEAD_SELECT}, l.received_at::text AS page_at FROM leads l
       WHERE l.received_at >= $1::timestamptz
         AND ($2::timestamptz IS NULL OR (l.received_at, l.id) ${past} ($2::timestamptz, $3::uuid))
       ORDER BY l.received_at ${direction}, l.id ${direction} LIMIT ${PAGE_ROWS}`,
      [since?.toISOString() ?? "-infinity", after?.at ?? null, after?.id ?? null],
    );
    for (const row of rows) {
      const lead = leadFromRow(row);
      if (lead) yield lead;
    }
    const last = rows.at(-1);
    if (!last || rows.length < PAGE_ROWS) return;
    after = { at: last.page_at, id: last.id };
  }
}

/** Past the cap of `reason`, its oldest quarantined leads go, one log line each. */
async function capQuarantine(database: Database, reason: string, max: number, log: (line: string) => void) {
  const { rows } = await database.query<{ id: string; received_at: Date }>(
    `DELETE FROM leads WHERE id IN (
       SELECT id FROM leads WHERE state = 'spam' AND reason = $1
       ORDER BY received_at DESC, id DESC OFFSET $2)
     RETURNING id, received_at`,
    [reason, max],
  );
  for (const row of rows) {
    log(
      `lead store: the quarantine holds ${max} ${reason} leads, its limit; removed the oldest, ${row.id} (received ${row.received_at.toISOString()})`,
    );
  }
}

/** The counts of each state, delivery's unwritten outcomes counted as they are. */
async function countRows(
  database: Database,
  unwrittenOutcomes?: ReadonlyMap<string, Lead>,
): Promise<LeadCounts> {
  const ids = [...(unwrittenOutcomes?.keys() ?? [])];
  const { rows } = await database.query<{
    state: string;
    count: number;
    oldest: Date | null;
    oldest_id: string | null;
  }>(
    `SELECT state, count(*)::int AS count, min(received_at) AS oldest,
       (array_agg(id::text ORDER BY received_at, id) FILTER (WHERE state = 'pending'))[1] AS oldest_id
     FROM (
       SELECT ${LEAD_STATE_SQL} AS state, l.received_at, l.id FROM leads l WHERE NOT (l.id = ANY($1::uuid[]))
     ) AS derived GROUP BY state`,
    [ids],
  );
  const counts = countLeads([...(unwrittenOutcomes?.values() ?? [])]);
  for (const row of rows) {
    if (!LEAD_STATES.includes(row.state as LeadState)) continue;
    counts[row.state as LeadState] += row.count;
    if (row.state === "pending" && row.oldest && row.oldest_id) {
      countOldestPending(counts, row.oldest_id, row.oldest.getTime());
    }
  }
  return counts;
}

const DAY_MS = 24 * 60 * 60_000;

/** Removes leads past their retention (never `pending` ones) and erasure records past the lead retention. */
async function pruneRows(database: Database, { days, spamDays }: Retention, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - days * DAY_MS).toISOString();
  const spamCutoff = new Date(now.getTime() - spamDays * DAY_MS).toISOString();
  const { rows } = await database.query<LeadRow>(
    `DELETE FROM leads WHERE id IN (
       SELECT l.id FROM leads l
       WHERE l.received_at < CASE WHEN l.state = 'spam' THEN $2::timestamptz ELSE $1::timestamptz END
         AND (${LEAD_STATE_SQL}) <> 'pending')
     RETURNING ${LEAD_COLUMNS}`,
    [cutoff, spamCutoff],
  );
  for (const lead of leadsFromRows(rows)) logLeadState(lead, "removed");
  await database.query("DELETE FROM erasures WHERE erased_at < $1", [cutoff]);
  return rows.length;
}
