/** The PostgreSQL field metrics store: the `vitals` table, behind the field metrics store contract. */
import type { Database } from "~/db/database.server";
import { describeDatabaseError } from "~/db/error-words.server";
import { rowChunks } from "~/db/row-chunks";
import { within } from "~/db/within.server";
import type { TapRecord, VitalsRecord } from "~/vitals/metrics";
import { RETENTION_MS, type VitalsStore } from "~/vitals/store.server";
import { isTapRecord, isVitalsRecord } from "~/vitals/summary";

/** How long a beacon's answer waits for its rows; a beacon is never retried, so late rows still land. */
const APPEND_WAIT_MS = 2_000;

/**
 * Field metrics as rows of `vitals`, one per metric, for every replica's visitors together.
 * Rows older than RETENTION_MS (28 days, as the privacy policy says) are deleted by `prune`,
 * which the server runs hourly. While the database is unreachable beacons are dropped: the
 * visitor's page is unaffected and the database's own line says it is down.
 */
export function createPostgresVitalsStore(database: Database, log = console.error): VitalsStore {
  let failing = false;
  const insert = (records: (VitalsRecord | TapRecord)[]) => {
    const values: unknown[] = [];
    const rows = records.map((record, index) => {
      values.push(
        record.at,
        record.route,
        record.device,
        record.nav,
        record.metric,
        record.value,
        record.rating,
        record.cores,
        record.memoryGb,
        "campaign" in record ? record.campaign : null,
      );
      const first = index * 10;
      return `(${Array.from({ length: 10 }, (_, column) => `$${first + column + 1}`).join(", ")})`;
    });
    return database.query(
      `INSERT INTO vitals (at, route, device, nav, metric, value, rating, cores, memory_gb, campaign) VALUES ${rows.join(", ")}`,
      values,
    );
  };
  return {
    async append(records: (VitalsRecord | TapRecord)[]) {
      if (records.length === 0) return true;
      if (database.state().status !== "ok") return false;
      // A batch of beacons is a statement per ROWS_PER_STATEMENT rows.
      const inserted = (async () => {
        for (const chunk of rowChunks(records)) await insert(chunk);
      })()
        .then(() => {
          failing = false;
          return true;
        })
        .catch((error: unknown) => {
          if (!failing && error instanceof Error && error.name !== "DatabaseUnavailableError") {
            log(
              `vitals: cannot write field metrics to the database (${describeDatabaseError(error)}); the site keeps serving`,
            );
          }
          failing = true;
          return false;
        });
      return within(inserted, APPEND_WAIT_MS, false);
    },
    async prune() {
      if (database.state().status !== "ok") return;
      await database
        .query("DELETE FROM vitals WHERE at < $1", [new Date(Date.now() - RETENTION_MS).toISOString()])
        .catch(() => {});
    },
  };
}

/** Every stored metric since `since`, for the summary (`npm run vitals`). */
export async function readPostgresRecords(database: Database, since: Date): Promise<VitalsRecord[]> {
  const { rows } = await database.query<{
    at: Date;
    route: string;
    device: string;
    nav: string;
    metric: string;
    value: number;
    rating: string;
    cores: number | null;
    memory_gb: number | null;
  }>(
    "SELECT at, route, device, nav, metric, value, rating, cores, memory_gb FROM vitals WHERE at >= $1 ORDER BY at",
    [since.toISOString()],
  );
  const records: VitalsRecord[] = [];
  for (const { at, memory_gb, ...row } of rows) {
    const record = { ...row, at: at.toISOString(), memoryGb: memory_gb } as Partial<VitalsRecord>;
    if (isVitalsRecord(record)) records.push(record);
  }
  return records;
}

/** Every WhatsApp tap stored since `since` (rows whose metric is `whatsapp-tap`), for `npm run vitals`. */
export async function readPostgresTaps(database: Database, since: Date): Promise<TapRecord[]> {
  const { rows } = await database.query<{ at: Date; route: string; device: string; campaign: string | null }>(
    "SELECT at, route, device, campaign FROM vitals WHERE metric = 'whatsapp-tap' AND at >= $1 ORDER BY at",
    [since.toISOString()],
  );
  const taps: TapRecord[] = [];
  for (const row of rows) {
    const tap = { ...row, at: row.at.toISOString(), metric: "whatsapp-tap" };
    if (isTapRecord(tap))
      taps.push({ ...tap, nav: "navigate", cores: null, memoryGb: null, value: 1, rating: "good" });
  }
  return taps;
}
