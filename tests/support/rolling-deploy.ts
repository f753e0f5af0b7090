// What the rolling-deploy specs observe of replicas of two releases on one PostgreSQL: the
// schema and migrations each release left, who holds the deliverer lock, who sent to EmailJS,
// and an enquiry sent to one replica as a visitor without JavaScript sends it.
import { type Browser, expect } from "@playwright/test";
import pg from "pg";
import { DELIVERER_LOCK } from "../../app/db/advisory-locks.server";
import { enquiryForm, fillEnquiry, NOTICE, validEnquiry } from "./enquiry-page";
import type { FakeEmailJs } from "./fake-emailjs";
import { type Replica, sentBy } from "./replicas";

/** Runs `sql` with `values` on the database at `url`; its rows. */
export async function query<Row extends pg.QueryResultRow>(
  url: string,
  sql: string,
  values: unknown[] = [],
): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Row>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

/** `schema_migrations` as a release left it: each version and its checksum (null when it kept none). */
export async function appliedMigrations(
  url: string,
): Promise<{ version: number; checksum: string | null }[]> {
  // Through jsonb: a release before checksums has no `checksum` column to select.
  const rows = await query<{ row: { version: number; checksum?: string | null } }>(
    url,
    "SELECT to_jsonb(m) AS row FROM schema_migrations m ORDER BY version",
  );
  return rows.map(({ row }) => ({ version: row.version, checksum: row.checksum ?? null }));
}

/** One column of a table, as `information_schema` describes it. */
export interface SchemaColumn {
  table: string;
  column: string;
  type: string;
  nullable: boolean;
  default: string | null;
}

/** Every column of every table of the database, by table and name. */
export async function schemaColumns(url: string): Promise<SchemaColumn[]> {
  return query<SchemaColumn>(
    url,
    `SELECT table_name AS table, column_name AS column, data_type AS type,
       is_nullable = 'YES' AS nullable, column_default AS default
     FROM information_schema.columns WHERE table_schema = 'public'
     ORDER BY table_name, column_name`,
  );
}

/** The replica holding the deliverer lock (by the `application_name` it connects with), or null. */
export async function delivererName(url: string): Promise<string | null> {
  const rows = await query<{ name: string }>(
    url,
    `SELECT a.application_name AS name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
     WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
       AND l.classid = ($1::bigint >> 32)::oid AND l.objid = ($1::bigint & 4294967295)::oid`,
    [DELIVERER_LOCK.toString()],
  );
  return rows[0]?.name ?? null;
}

/** A visitor without JavaScript fills in the form `replica` serves and submits it; it says the enquiry was sent. */
export async function enquire(browser: Browser, replica: Replica, name: string): Promise<string> {
  const context = await browser.newContext({ javaScriptEnabled: false });
  try {
    const page = await context.newPage();
    await page.goto(`${replica.server.url}/`);
    await fillEnquiry(page, validEnquiry({ name }));
    await enquiryForm(page).submit.click();
    await expect(enquiryForm(page).notice, `${name} sent to ${replica.name}`).toContainText(NOTICE.sent);
    return name;
  } finally {
    await context.close();
  }
}

/** Who sent to EmailJS, in order, each run of one replica's requests counted once. */
export const senderTurns = (fake: FakeEmailJs) =>
  fake.requests.map(sentBy).filter((sender, index, all) => sender !== all[index - 1]);
