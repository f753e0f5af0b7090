// The operator's view of the field metrics the site's visitors report (app/vitals): per route
// and device class, the 75th percentile of each metric over the last 28 days, rated by
// Google's thresholds. Reads ENQUIRY_STORE_DIR (default ./data) like the server.
// Run: npm run vitals                       (a table on stdout)
//      npm run vitals -- --html report.html (also a self-contained page with a chart per metric)
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseEnv } from "~/env.server";
import { renderReport } from "~/vitals/report-html";
import { PREVIOUS_VITALS_FILE, VITALS_FILE } from "~/vitals/store.server";
import { formatSummary, parseRecords, summarise } from "~/vitals/summary";

const args = process.argv.slice(2);
const htmlFlag = args.indexOf("--html");
const htmlPath = htmlFlag === -1 ? undefined : args[htmlFlag + 1];
if (htmlFlag !== -1 && (htmlPath === undefined || htmlPath.startsWith("--"))) {
  console.error("usage: npm run vitals [-- --html <file>]");
  process.exit(2);
}

const dir = parseEnv(process.env).ENQUIRY_STORE_DIR;
const files = [PREVIOUS_VITALS_FILE, VITALS_FILE]
  .map((name) => join(dir, name))
  .filter((file) => existsSync(file));
if (files.length === 0) console.error(`No field metrics in ${resolve(dir)} yet (ENQUIRY_STORE_DIR).`);

const records = files.flatMap((file) => parseRecords(readFileSync(file, "utf8")));
const summary = summarise(records, new Date());
console.log(formatSummary(summary));

if (htmlPath !== undefined) {
  writeFileSync(htmlPath, renderReport(summary));
  console.log(`\nReport written to ${resolve(htmlPath)}`);
}
