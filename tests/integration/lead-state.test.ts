import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/database.server";
import { DELIVERY_STATES, LEAD_STATES, leadStateOf } from "~/leads/lead";
import {
  LEAD_COLUMNS,
  LEAD_SELECT,
  LEAD_STATE_SQL,
  LEAD_VALUES,
  type LeadRow,
  leadFromRow,
} from "~/leads/postgres/rows.server";
import { openMigratedDatabase } from "../support/migrated-database";
import { startPostgres, type TestPostgres } from "../support/postgres";

// One statement of a lead's state: every combination a `leads` row and its `lead_deliveries` can
// hold goes through `leadStateOf` (as the store reads the row) and through `LEAD_STATE_SQL` (as
// the database counts and orders it), on a real PostgreSQL; any difference fails.
let postgres: TestPostgres;
let database: Database;
beforeAll(async () => {
  postgres = await startPostgres("pg-lead-state");
  database = await openMigratedDatabase(await postgres.createDatabase());
}, 60_000);
afterAll(async () => {
  await database?.stop();
  await postgres?.dispose();
}, 60_000);

/** The row's own columns (EmailJS's record, or `inbox`/`spam` for a lead without one). */
const OWN_STATES = ["pending", "sent", "failed", "inbox", "spam"] as const;
/** The `destinations` column: NULL for a row stored by the release before destinations. */
const DESTINATION_COLUMNS = [null, [], ["emailjs"], ["webhook"], ["emailjs", "webhook"]] as const;
/** The webhook's `lead_deliveries` record: none, or one in each delivery state. */
const WEBHOOK_RECORDS = [null, ...DELIVERY_STATES] as const;

interface Combination {
  own: (typeof OWN_STATES)[number];
  column: (typeof DESTINATION_COLUMNS)[number];
  webhook: (typeof WEBHOOK_RECORDS)[number];
}

const combinations: Combination[] = OWN_STATES.flatMap((own) =>
  DESTINATION_COLUMNS.flatMap((column) => WEBHOOK_RECORDS.map((webhook) => ({ own, column, webhook }))),
);

const at = "2026-11-01T10:00:00.000Z";
const enquiry = {
  name: "Asha",
  email: "asha@example.in",
  countryCode: "91",
  phoneNumber: "98765",
  message: "",
};

async function insert(combination: Combination): Promise<string> {
  const id = randomUUID();
  const { own, column, webhook } = combination;
  await database.query(`INSERT INTO leads (${LEAD_COLUMNS}) VALUES (${LEAD_VALUES})`, [
    id,
    at,
    own,
    1,
    own === "failed" ? "HTTP 503" : null,
    at,
    at,
    JSON.stringify(enquiry),
    own === "spam" ? "honeypot" : null,
    null,
    null,
    null,
    column,
  ]);
  if (webhook !== null) {
    await database.query(
      `INSERT INTO lead_deliveries (lead_id, destination, state, attempts, next_attempt_at, queued_at)
       VALUES ($1, 'webhook', $2, 1, $3, $3)`,
      [id, webhook, at],
    );
  }
  return id;
}

describe("a lead's state, stated once", () => {
  it(`agrees between leadStateOf and LEAD_STATE_SQL in all ${combinations.length} combinations`, async () => {
    const ids = new Map<string, Combination>();
    for (const combination of combinations) ids.set(await insert(combination), combination);
    const { rows } = await database.query<LeadRow & { sql_state: string }>(
      `SELECT ${LEAD_SELECT}, ${LEAD_STATE_SQL} AS sql_state FROM leads l`,
    );
    expect(rows).toHaveLength(combinations.length);
    const differences = rows.flatMap((row) => {
      const lead = leadFromRow(row);
      const inCode = lead ? leadStateOf(lead.destinations, row.state === "spam") : "unreadable";
      return inCode === row.sql_state
        ? []
        : [{ ...ids.get(row.id), leadStateOf: inCode, LEAD_STATE_SQL: row.sql_state }];
    });
    expect(differences).toEqual([]);
    // Every state a lead can have is reached, so no branch of either statement goes unchecked.
    expect(new Set(rows.map((row) => row.sql_state))).toEqual(new Set(LEAD_STATES));
  });
});
