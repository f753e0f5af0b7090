/**
 * The campaign report (`npm run report`): visits, enquiries, the rate between them and WhatsApp
 * taps per campaign and landing page, over `--since`…`--until` (days in REPORT_TIME_ZONE, the
 * last 28 by default), with the change from the period before. Reads what the server counts:
 * with DATABASE_URL the database (every replica's), otherwise ENQUIRY_STORE_DIR (default ./data).
 * Run: npm run report [-- --json | --csv | --html FILE] [--since DAY] [--until DAY]
 */
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { addDays, dayIn, daysBetween } from "~/campaigns/counts";
import { campaignsFolder, createFolderCampaignStore } from "~/campaigns/folder-store.server";
import { createPostgresCampaignStore } from "~/campaigns/postgres-store.server";
import { fullReport, periodBefore, reportCsv, reportJson, reportText } from "~/campaigns/report";
import { renderCampaignReport } from "~/campaigns/report-html";
import type { CampaignCountStore } from "~/campaigns/store.server";
import { openCommandDatabase } from "~/db/command-database.server";
import { describeDatabaseError } from "~/db/error-words.server";
import { parseEnv } from "~/env.server";
import { optionProblem, readArguments, usageLine } from "~/leads/operations/command-forms";

/** The longest period one report reads: the counts' retention, beside the period before it. */
const MAX_DAYS = 400;

const argv = process.argv.slice(2);
const args = readArguments("report", argv);
if (!args) {
  console.error(optionProblem("report", argv) ?? usageLine("report"));
  process.exit(2);
}
const env = parseEnv(process.env);
const until = args.options.get("--until") ?? dayIn(new Date(), env.REPORT_TIME_ZONE);
const since = args.options.get("--since") ?? addDays(until, -27);
if (since > until || daysBetween(since, until).length > MAX_DAYS) {
  console.error(`report: --since must be a day on or before --until, at most ${MAX_DAYS} days before it`);
  process.exit(2);
}

const database = env.DATABASE_URL ? await openCommandDatabase("report", env.DATABASE_URL) : null;
const store: CampaignCountStore = database
  ? createPostgresCampaignStore(database)
  : createFolderCampaignStore({ folder: campaignsFolder(env.ENQUIRY_STORE_DIR) });
const before = periodBefore(since, until);
const rows = await Promise.all([
  store.read(before.since, until, "campaign-day"),
  store.read(since, until, "route"),
  store.read(before.since, before.until, "route"),
]).catch((error: unknown) => {
  console.error(
    `report: cannot read the campaign counts (${database ? describeDatabaseError(error) : String(error)})`,
  );
  process.exit(1);
});
await database?.stop();

const [campaignDays, pages, previousPages] = rows;
const report = fullReport({ campaignDays, pages, previousPages }, since, until);
if (args.form === "json") console.log(reportJson(report));
else if (args.form === "csv") process.stdout.write(reportCsv(report));
else {
  console.log(reportText(report));
  if (args.form === "html") {
    const path = args.values[0] ?? "";
    writeFileSync(path, renderCampaignReport(report));
    console.log(`\nReport written to ${resolve(path)}`);
  }
}
