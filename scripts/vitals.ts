/**
 * The operator's view of the field metrics the site's visitors report (app/vitals): per route
 * and device class, the 75th percentile of each metric over the last 28 days, rated by
 * Google's thresholds, then the taps on "Chat on WhatsApp" per campaign. Reads what the server writes: with DATABASE_URL the database (every
 * replica's visitors), otherwise ENQUIRY_STORE_DIR (default ./data).
 * Run: npm run vitals                       (a table on stdout)
 *      npm run vitals -- --html report.html (also a self-contained page with a chart per metric)
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { openCommandDatabase } from "~/db/command-database.server";
import { describeDatabaseError } from "~/db/error-words.server";
import { parseEnv } from "~/env.server";
import { readArguments, usageLine } from "~/leads/operations/command-forms";
import { PREVIOUS_VITALS_FILE, VITALS_FILE } from "~/vitals/folder-store.server";
import type { TapRecord, VitalsRecord } from "~/vitals/metrics";
import { readPostgresRecords, readPostgresTaps } from "~/vitals/postgres-store.server";
import { renderReport } from "~/vitals/report-html";
import {
  formatSummary,
  formatTaps,
  parseRecords,
  parseTaps,
  SUMMARY_WINDOW_MS,
  summarise,
  tapsPerCampaign,
} from "~/vitals/summary";

const args = readArguments("vitals", process.argv.slice(2));
if (!args) {
  console.error(usageLine("vitals"));
  process.exit(2);
}
const htmlPath = args.form === "html" ? args.values[0] : undefined;

const env = parseEnv(process.env);
const now = new Date();

async function fromDatabase(url: string): Promise<[VitalsRecord[], TapRecord[]]> {
  const database = await openCommandDatabase("vitals", url);
  const since = new Date(now.getTime() - SUMMARY_WINDOW_MS);
  try {
    return [await readPostgresRecords(database, since), await readPostgresTaps(database, since)];
  } catch (error) {
    console.error(`vitals: cannot read the database at DATABASE_URL: ${describeDatabaseError(error)}`);
    process.exit(1);
  } finally {
    await database.stop();
  }
}

function fromFolder(dir: string): [VitalsRecord[], TapRecord[]] {
  const files = [PREVIOUS_VITALS_FILE, VITALS_FILE]
    .map((name) => join(dir, name))
    .filter((file) => existsSync(file));
  if (files.length === 0) console.error(`No field metrics in ${resolve(dir)} yet (ENQUIRY_STORE_DIR).`);
  const texts = files.map((file) => readFileSync(file, "utf8"));
  return [texts.flatMap(parseRecords), texts.flatMap(parseTaps)];
}

const [records, taps] = env.DATABASE_URL
  ? await fromDatabase(env.DATABASE_URL)
  : fromFolder(env.ENQUIRY_STORE_DIR);
const summary = summarise(records, now);
console.log(formatSummary(summary));
console.log(`\n${formatTaps(tapsPerCampaign(taps, now))}`);

if (htmlPath !== undefined) {
  writeFileSync(htmlPath, renderReport(summary));
  console.log(`\nReport written to ${resolve(htmlPath)}`);
}
