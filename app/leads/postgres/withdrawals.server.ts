/**
 * Withdrawals in PostgreSQL: the lookup, the erasures and their records in one transaction, and
 * each notice told under its row's lock (the tables of migration 0007).
 */
import type { PoolClient } from "pg";
import type { Database } from "~/db/database.server";
import { DESTINATIONS, type DestinationName } from "~/destinations/lookup.server";
import { referenceIdRange } from "~/lead-parts/reference";
import { DELIVERY_STATES, type DeliveryRecord, type DeliveryState } from "~/leads/lead";
import { eraseLeadIn } from "~/leads/postgres/erasure.server";
import {
  cleanedByHand,
  isNoticeTarget,
  type NoticeTarget,
  newNotice,
  noticeTargets,
  type Withdrawal,
  type WithdrawalStore,
} from "~/leads/withdrawals.server";

/** A withdrawal the visitor stopped waiting for: rolled back at its COMMIT. */
class GivenUpError extends Error {
  constructor() {
    super("the withdrawal was given up before it committed");
    this.name = "GivenUpError";
  }
}

interface NoticeRow {
  lead_id: string;
  target: string;
  state: string;
  attempts: number;
  last_error: string | null;
  next_attempt_at: Date;
  queued_at: Date;
}

interface WithdrawalRow {
  lead_id: string;
  withdrawn_at: Date;
  holding: string[];
  done_at: Date | null;
}

const NOTICE_COLUMNS = "lead_id, target, state, attempts, last_error, next_attempt_at, queued_at";
const NOTICES_OF = `SELECT ${NOTICE_COLUMNS} FROM withdrawal_notices WHERE lead_id = ANY($1::uuid[])`;

/** A notice row as a record; null for a state or target this release does not know (left alone). */
function noticeOf(row: NoticeRow): [NoticeTarget, DeliveryRecord] | null {
  if (!isNoticeTarget(row.target, DESTINATIONS)) return null;
  if (!DELIVERY_STATES.includes(row.state as DeliveryState)) return null;
  return [
    row.target,
    {
      state: row.state as DeliveryState,
      attempts: row.attempts,
      lastError: row.last_error,
      nextAttemptAt: row.next_attempt_at.toISOString(),
      queuedAt: row.queued_at.toISOString(),
    },
  ];
}

/** Withdrawal rows with their notices, in the rows' order. */
async function withdrawalsOf(
  readNotices: (ids: string[]) => Promise<{ rows: NoticeRow[] }>,
  rows: readonly WithdrawalRow[],
): Promise<Withdrawal[]> {
  const { rows: notices } = await readNotices(rows.map((row) => row.lead_id));
  return rows.map((row) => {
    const own = notices.filter((notice) => notice.lead_id === row.lead_id).map(noticeOf);
    return {
      leadId: row.lead_id,
      withdrawnAt: row.withdrawn_at.toISOString(),
      holding: DESTINATIONS.filter((name) => row.holding.includes(name)),
      doneAt: row.done_at?.toISOString() ?? null,
      notices: Object.fromEntries(own.filter((notice) => notice !== null)),
    };
  });
}

/**
 * The withdrawals in `withdrawals`, `withdrawal_notices` and `withdrawal_days`. A withdrawal is one
 * transaction: the lookup, each lead's erasure (as `npm run leads -- erase` makes it, its sends
 * begun read under its locks), the records and the day's count; `stillWanted` is asked before its
 * COMMIT. A notice is told inside the transaction that holds its row (FOR UPDATE SKIP LOCKED): the
 * replica holding the row sends, another skips it, and a replica that dies mid-send lets the row
 * go with its connection. No clock decides who acts.
 */
export function createPostgresWithdrawals(options: {
  database: Database;
  now?: () => Date;
}): WithdrawalStore {
  const { database, now = () => new Date() } = options;
  return {
    async withdraw({ reference, address }, { at, chat, stillWanted }) {
      const { lowest, highest } = referenceIdRange(reference);
      try {
        return await database.transaction(async (client) => {
          // The same two reads whatever they find: the reference's leads, and the address's.
          const referenced = await client.query<{ id: string; email: string }>(
            "SELECT id, enquiry->>'email' AS email FROM leads WHERE id BETWEEN $1 AND $2",
            [lowest, highest],
          );
          const sameAddress = (email: string) => email.trim().toLowerCase() === address;
          const person = await client.query<{ id: string; email: string }>(
            `SELECT id, enquiry->>'email' AS email FROM leads WHERE lower(btrim(enquiry->>'email')) = lower($1)
             ORDER BY received_at, id`,
            [address],
          );
          const erased: string[] = [];
          if (referenced.rows.some((row) => sameAddress(row.email))) {
            for (const { id, email } of person.rows) {
              if (!sameAddress(email)) continue;
              const holding = await eraseLeadIn(client, id, at);
              await recordWithdrawal(client, id, at, holding, noticeTargets(holding, chat));
              erased.push(id);
            }
            await client.query(
              `INSERT INTO withdrawal_days (day, withdrawals) VALUES (($1::timestamptz AT TIME ZONE 'UTC')::date, 1)
               ON CONFLICT (day) DO UPDATE SET withdrawals = withdrawal_days.withdrawals + 1`,
              [at.toISOString()],
            );
          }
          if (!stillWanted()) throw new GivenUpError();
          return { erased };
        });
      } catch (error) {
        if (error instanceof GivenUpError) return "given up";
        throw error;
      }
    },

    tellNext: (targets, tell) =>
      database.transaction(async (client) => {
        const time = now().toISOString();
        const { rows } = await client.query<NoticeRow>(
          `SELECT ${NOTICE_COLUMNS} FROM withdrawal_notices
           WHERE state = 'pending' AND target = ANY($1::text[]) AND next_attempt_at <= $2
           ORDER BY next_attempt_at, lead_id, target LIMIT 1 FOR UPDATE SKIP LOCKED`,
          [targets, time],
        );
        const row = rows[0];
        const notice = row ? noticeOf(row) : null;
        if (!row || !notice) {
          const { rows: due } = await client.query<{ due: Date | null }>(
            `SELECT min(next_attempt_at) AS due FROM withdrawal_notices
             WHERE state = 'pending' AND target = ANY($1::text[])`,
            [targets],
          );
          const next = due[0]?.due;
          return { told: false, dueAt: next ? next.getTime() : null };
        }
        const { rows: own } = await client.query<WithdrawalRow>(
          "SELECT lead_id, withdrawn_at, holding, done_at FROM withdrawals WHERE lead_id = $1",
          [row.lead_id],
        );
        const [withdrawal] = await withdrawalsOf((ids) => client.query<NoticeRow>(NOTICES_OF, [ids]), own);
        if (!withdrawal) return { told: false, dueAt: null };
        const [target, record] = notice;
        const after = await tell(withdrawal, target, record);
        await client.query(
          `UPDATE withdrawal_notices SET (state, attempts, last_error, next_attempt_at, queued_at) =
             ($3, $4, $5, $6, $7) WHERE lead_id = $1 AND target = $2`,
          [
            row.lead_id,
            target,
            after.state,
            after.attempts,
            after.lastError,
            after.nextAttemptAt,
            after.queuedAt,
          ],
        );
        // A destination that gave up on hearing of it: its copy is the team's to erase by hand.
        if (after.state === "failed" && target !== "chat") {
          await client.query("UPDATE withdrawals SET done_at = NULL WHERE lead_id = $1", [row.lead_id]);
        }
        return { told: true };
      }),

    async open() {
      const { rows } = await database.query<WithdrawalRow>(
        `SELECT lead_id, withdrawn_at, holding, done_at FROM withdrawals
         WHERE done_at IS NULL ORDER BY withdrawn_at, lead_id`,
      );
      return withdrawalsOf((ids) => database.query<NoticeRow>(NOTICES_OF, [ids]), rows);
    },

    async markDone(leadId, at) {
      const { rows } = await database.query<{ done: boolean }>(
        `WITH marked AS (
           UPDATE withdrawals SET done_at = $2 WHERE lead_id = $1 AND done_at IS NULL RETURNING lead_id)
         SELECT EXISTS (SELECT 1 FROM marked) AS done`,
        [leadId, at.toISOString()],
      );
      if (rows[0]?.done) return "done";
      const known = await database.query("SELECT 1 FROM withdrawals WHERE lead_id = $1", [leadId]);
      return known.rows.length > 0 ? "already done" : "unknown";
    },

    async perDay(since) {
      const { rows } = await database.query<{ day: string; withdrawals: number }>(
        `SELECT day::text AS day, withdrawals FROM withdrawal_days
         WHERE day >= ($1::timestamptz AT TIME ZONE 'UTC')::date ORDER BY day`,
        [since.toISOString()],
      );
      return rows;
    },

    async prune() {
      await database.query(
        `DELETE FROM withdrawals w WHERE done_at IS NOT NULL AND NOT EXISTS (
           SELECT 1 FROM withdrawal_notices n WHERE n.lead_id = w.lead_id AND n.state = 'pending')`,
      );
    },
  };
}

/**
 * Records lead `id`'s withdrawal and its notices. With nothing for the team to erase by hand (no
 * destination that cannot be told may hold it), it is done from the start.
 */
async function recordWithdrawal(
  client: PoolClient,
  id: string,
  at: Date,
  holding: readonly DestinationName[],
  targets: readonly NoticeTarget[],
) {
  const time = at.toISOString();
  const done = !cleanedByHand(holding);
  await client.query(
    `INSERT INTO withdrawals (lead_id, withdrawn_at, holding, done_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (lead_id) DO NOTHING`,
    [id, time, holding, done ? time : null],
  );
  const notice = newNotice(at);
  for (const target of targets) {
    await client.query(
      `INSERT INTO withdrawal_notices (${NOTICE_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT DO NOTHING`,
      [id, target, notice.state, notice.attempts, notice.lastError, notice.nextAttemptAt, notice.queuedAt],
    );
  }
}
