/** The campaign counts in PostgreSQL: the `campaign_counts` table, one row per day, landing page and campaign. */
import type { PoolClient } from "pg";
import {
  addDays,
  type CountEvent,
  type CountRow,
  type Grouping,
  RETENTION_DAYS,
  rowsOf,
} from "~/campaigns/counts";
import type { CampaignCountStore } from "~/campaigns/store.server";
import type { Database } from "~/db/database.server";
import { describeDatabaseError } from "~/db/error-words.server";
import { rowChunks } from "~/db/row-chunks";
import { within } from "~/db/within.server";

/** How long a beacon's answer waits for its count; a late one still lands. */
const ADD_WAIT_MS = 2_000;

const KEY_COLUMNS = ["day", "route", "source", "medium", "campaign", "click", "host"] as const;
const COUNTER_COLUMNS = {
  visits: "visits",
  enquiries: "enquiries",
  spam: "spam",
  whatsappTaps: "whatsapp_taps",
  droppedVisits: "dropped_visits",
} as const;

/** A stored field: the empty string is a field the visit did not have. */
const nullable = (value: string | number | undefined) =>
  value === undefined || value === "" ? null : String(value);

/** A statement adding `rows` to theirs (one upsert, each key once), with its values. */
function upsertOf(rows: readonly CountRow[]): { text: string; values: unknown[] } {
  const counters = Object.entries(COUNTER_COLUMNS);
  const width = KEY_COLUMNS.length + counters.length;
  const values: unknown[] = [];
  const tuples = rows.map((row, index) => {
    values.push(
      ...KEY_COLUMNS.map((column) => row[column] ?? ""),
      ...counters.map(([counter]) => row[counter as keyof typeof COUNTER_COLUMNS]),
    );
    return `(${Array.from({ length: width }, (_, column) => `$${index * width + column + 1}`).join(", ")})`;
  });
  const columns = [...KEY_COLUMNS, ...Object.values(COUNTER_COLUMNS)];
  return {
    text: `INSERT INTO campaign_counts (${columns.join(", ")}) VALUES ${tuples.join(", ")}
      ON CONFLICT (${KEY_COLUMNS.join(", ")}) DO UPDATE SET
      ${Object.values(COUNTER_COLUMNS)
        .map((column) => `${column} = campaign_counts.${column} + EXCLUDED.${column}`)
        .join(", ")}`,
    values,
  };
}

/**
 * Counts `events` in the caller's transaction: how a lead's insert counts its enquiry, so the
 * count commits with the lead, once, whichever replica or spool stores it. Under a savepoint: a
 * count the database refuses is lost, never the lead.
 */
export async function countIn(client: PoolClient, events: readonly CountEvent[]): Promise<void> {
  if (events.length === 0) return;
  const { text, values } = upsertOf(rowsOf(events));
  await client.query("SAVEPOINT campaign_count");
  try {
    await client.query(text, values);
    await client.query("RELEASE SAVEPOINT campaign_count");
  } catch {
    await client.query("ROLLBACK TO SAVEPOINT campaign_count");
  }
}

/**
 * Counts for every replica together. Events are added to their rows by upserts (ON CONFLICT …
 * DO UPDATE), each key once per statement, so replicas add to one row under its row lock and
 * never count an event twice. While the
 * database is unreachable, events are not counted (the database's own line says it is down).
 */
export function createPostgresCampaignStore(database: Database, log = console.error): CampaignCountStore {
  let failing = false;
  return {
    async add(events) {
      if (events.length === 0) return true;
      if (database.state().status !== "ok") return false;
      // A batch's events summed by key first, then a statement per ROWS_PER_STATEMENT rows.
      const added = (async () => {
        for (const chunk of rowChunks(rowsOf(events))) {
          const { text, values } = upsertOf(chunk);
          await database.query(text, values);
        }
      })().then(
        () => {
          failing = false;
          return true;
        },
        (error: unknown) => {
          if (!failing && error instanceof Error && error.name !== "DatabaseUnavailableError")
            log(
              `campaigns: cannot write the campaign counts to the database (${describeDatabaseError(error)}); the site keeps serving`,
            );
          failing = true;
          return false;
        },
      );
      return within(added, ADD_WAIT_MS, false);
    },

    async read(since, until, by = "all") {
      const counters = Object.entries(COUNTER_COLUMNS);
      const kept: Record<Grouping, readonly string[]> = {
        all: KEY_COLUMNS,
        "campaign-day": ["day", "source", "medium", "campaign"],
        route: ["route"],
      };
      const columns = kept[by];
      const select = KEY_COLUMNS.map((column) => {
        if (column === "day") return by === "route" ? "$3::text AS day" : "to_char(day, 'YYYY-MM-DD') AS day";
        return columns.includes(column) ? column : `'' AS ${column}`;
      });
      const grouped = columns.map((column) => (column === "day" ? "campaign_counts.day" : column));
      const { rows } = await database.query<Record<string, string | number>>(
        `SELECT ${select.join(", ")}, ${counters.map(([counter, column]) => `sum(${column})::int AS "${counter}"`).join(", ")}
         FROM campaign_counts WHERE day BETWEEN $1::date AND $2::date GROUP BY ${grouped.join(", ")}`,
        by === "route" ? [since, until, since] : [since, until],
      );
      return rows.map((row) => ({
        day: String(row.day),
        route: nullable(row.route),
        source: nullable(row.source),
        medium: nullable(row.medium),
        campaign: nullable(row.campaign),
        click: nullable(row.click),
        host: nullable(row.host),
        visits: Number(row.visits),
        enquiries: Number(row.enquiries),
        spam: Number(row.spam),
        whatsappTaps: Number(row.whatsappTaps),
        droppedVisits: Number(row.droppedVisits),
      }));
    },

    async prune(today) {
      if (database.state().status !== "ok") return;
      await database
        .query("DELETE FROM campaign_counts WHERE day < $1", [addDays(today, -RETENTION_DAYS)])
        .catch(() => {});
    },
  };
}
