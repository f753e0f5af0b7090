/**
 * `npm run bench:report`: the campaign figures at a year's scale, on the data folder and on an
 * embedded PostgreSQL. Fills a year of daily counts for 50 campaigns and 30 landing pages, posts
 * 100,000 landing reports to the built server's `/vitals`, then prints the visits the report
 * counts from them, `npm run report`'s time (28 days and a whole year), the endpoint's server
 * CPU per request beside `GET /`, and the store's size. Goals: the report within 1 s; the endpoint at most what a page costs.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import autocannon from "autocannon";
import { addDays, type CountRow, dayIn, emptyRow } from "../app/campaigns/counts";
import { createFolderCampaignStore, lineOf } from "../app/campaigns/folder-store.server";
import { VITALS_ROUTES } from "../app/vitals/metrics";
import { ensureBuild } from "../scripts/lib/build.js";
import { root } from "../scripts/lib/server.js";
import { printTable } from "../scripts/lib/table.js";
import { startPostgres } from "../tests/support/postgres";
import { databaseReady, startServer } from "../tests/support/server-process";
import { measure } from "./lib/expensive-requests";

if (process.argv.includes("--help")) {
  console.log(`usage: npm run bench:report

A year of daily campaign counts (50 campaigns x 30 landing pages), then BENCH_LANDINGS (100000)
landing reports posted to /vitals, on the data folder and on an embedded PostgreSQL; prints
npm run report's time over 28 days and over a year, the endpoint's CPU per request beside
GET /, and the store's size.`);
  process.exit(0);
}

const CAMPAIGNS = 50;
const PAGES = 30;
const DAYS = 365;
const LANDINGS = Number(process.env.BENCH_LANDINGS ?? 100_000);
const TIME_ZONE = "Asia/Kolkata";
const today = dayIn(new Date(), TIME_ZONE);

const campaign = (index: number) => ({
  source: ["newsletter", "google", "linkedin", "instagram", "partner"][index % 5] ?? null,
  medium: ["email", "cpc", "social", "referral", "display"][index % 5] ?? null,
  campaign: `campaign-${index}`,
  click: index % 3 === 0 ? "gclid" : null,
  host: index % 4 === 0 ? "mail.google.com" : null,
});
const page = (index: number) => `/bench/page-${index}`;

/** A year of rows: every campaign on every page every day, with counts that vary. */
function* yearOfRows(): Generator<CountRow[]> {
  for (let back = DAYS; back >= 1; back -= 1) {
    const day = addDays(today, -back);
    const rows: CountRow[] = [];
    for (let c = 0; c < CAMPAIGNS; c += 1)
      for (let p = 0; p < PAGES; p += 1) {
        const row = emptyRow({ day, route: page(p), ...campaign(c) });
        row.visits = (c * 7 + p * 3 + back) % 40;
        row.enquiries = (c + p + back) % 3 === 0 ? 1 : 0;
        row.whatsappTaps = (c + back) % 5 === 0 ? 1 : 0;
        rows.push(row);
      }
    yield rows;
  }
}

/** A year of compacted days, then the server's hourly pruning, which rolls each month up: its time in ms. */
async function fillFolder(storeDir: string): Promise<number> {
  const folder = join(storeDir, "campaigns");
  mkdirSync(folder, { recursive: true });
  for (const rows of yearOfRows())
    writeFileSync(join(folder, `${rows[0]?.day}.json`), JSON.stringify(rows.map(lineOf)));
  const rolling = performance.now();
  await createFolderCampaignStore({ folder }).prune(today);
  return Math.round(performance.now() - rolling);
}

async function fillDatabase(sql: (text: string) => Promise<unknown>) {
  await sql(`INSERT INTO campaign_counts (day, route, source, medium, campaign, click, host, visits, enquiries, whatsapp_taps)
    SELECT d::date, '/bench/page-' || p, (ARRAY['newsletter','google','linkedin','instagram','partner'])[c % 5 + 1],
      (ARRAY['email','cpc','social','referral','display'])[c % 5 + 1], 'campaign-' || c,
      CASE WHEN c % 3 = 0 THEN 'gclid' ELSE '' END, CASE WHEN c % 4 = 0 THEN 'mail.google.com' ELSE '' END,
      (c * 7 + p * 3) % 40, CASE WHEN (c + p) % 3 = 0 THEN 1 ELSE 0 END, CASE WHEN c % 5 = 0 THEN 1 ELSE 0 END
    FROM generate_series(date '${addDays(today, -DAYS)}', date '${addDays(today, -1)}', interval '1 day') AS d,
      generate_series(0, ${CAMPAIGNS - 1}) AS c, generate_series(0, ${PAGES - 1}) AS p`);
}

/** A landing report as a page sends it, from one of the campaigns, on one of the site's routes. */
function landingBody(index: number): string {
  return JSON.stringify({
    route: VITALS_ROUTES[index % (VITALS_ROUTES.length - 1)],
    device: "mobile",
    navigationType: "navigate",
    cores: 8,
    memoryGb: 4,
    metrics: [{ name: "LCP", value: 1200, rating: "good" }],
    landing: { ...campaign(index % CAMPAIGNS), click: campaign(index % CAMPAIGNS).click },
  });
}

const du = (path: string): number =>
  statSync(path).isDirectory()
    ? readdirSync(path).reduce((sum, name) => sum + du(join(path, name)), 0)
    : statSync(path).size;

/** `npm run report` (the built command) over `since`…today: its wall time in ms. */
async function reportMs(env: Record<string, string>, since: string): Promise<number> {
  const started = performance.now();
  await promisify(execFile)(process.execPath, [join(root, "build/report.js"), "--json", "--since", since], {
    env: { PATH: process.env.PATH ?? "", NODE_ENV: "production", REPORT_TIME_ZONE: TIME_ZONE, ...env },
    maxBuffer: 64 * 1024 * 1024,
  });
  return Math.round(performance.now() - started);
}

/**
 * The visits `npm run report` counts today (the year's fill has none): the landings posted, once
 * the server's batch has written them, or what it has after 30 s.
 */
async function visitsToday(env: Record<string, string>, posted: number): Promise<number> {
  const deadline = performance.now() + 30_000;
  for (;;) {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [join(root, "build/report.js"), "--json", "--since", today],
      { env: { PATH: process.env.PATH ?? "", NODE_ENV: "production", REPORT_TIME_ZONE: TIME_ZONE, ...env } },
    );
    const visits = (JSON.parse(stdout) as { campaigns: { visits: number }[] }).campaigns.reduce(
      (sum, line) => sum + line.visits,
      0,
    );
    if (visits >= posted || performance.now() > deadline) return visits;
  }
}

ensureBuild();
const work = mkdtempSync(join(tmpdir(), "bench-report-"));
const postgres = await startPostgres("bench-report-pg");
const results: Record<string, string | number>[] = [];
try {
  for (const store of ["the data folder", "PostgreSQL"] as const) {
    const storeDir = join(work, store === "PostgreSQL" ? "pg" : "folder");
    mkdirSync(storeDir, { recursive: true });
    const databaseUrl = store === "PostgreSQL" ? await postgres.createDatabase() : undefined;
    const env: Record<string, string> = {
      ENQUIRY_STORE_DIR: storeDir,
      REPORT_TIME_ZONE: TIME_ZONE,
      LANDING_RATE_LIMIT: String(LANDINGS * 10),
      VITALS_RATE_LIMIT: String(LANDINGS * 10),
      // PostgreSQL commits each beacon's rows (its limits, its metrics, its count): more
      // connections let concurrent commits share their WAL flushes.
      ...(databaseUrl ? { DATABASE_URL: databaseUrl, DATABASE_POOL_SIZE: "20" } : {}),
    };
    const filling = performance.now();
    const app = await startServer({ cwd: root, env, quiet: true });
    try {
      let rolledUpMs: number | string = "n/a";
      if (databaseUrl) {
        await databaseReady(app.url);
        await fillDatabase((text) => postgres.sql(text, [], new URL(databaseUrl).pathname.slice(1)));
      } else rolledUpMs = await fillFolder(storeDir);
      const filledMs = Math.round(performance.now() - filling);
      const posting = performance.now();
      const result = await autocannon({
        url: app.url,
        connections: databaseUrl ? 32 : 10,
        amount: LANDINGS,
        requests: Array.from({ length: 200 }, (_, index) => ({
          method: "POST" as const,
          path: "/vitals",
          headers: { "content-type": "application/json" },
          body: landingBody(index),
        })),
      });
      const postedMs = performance.now() - posting;
      const counted = await visitsToday(env, result.requests.total);
      const pid = app.pid ?? 0;
      const beacon = await measure(app.url, pid, {
        label: "POST /vitals (a landing)",
        answer: 202,
        method: "POST",
        path: "/vitals",
        headers: [["content-type", "application/json"]],
        body: landingBody(7),
      });
      const home = await measure(app.url, pid, { label: "GET /", answer: 200, path: "/" });
      const size = databaseUrl
        ? Number(
            (
              await postgres.sql<{ size: string }>(
                "SELECT pg_total_relation_size('campaign_counts') AS size",
                [],
                new URL(databaseUrl).pathname.slice(1),
              )
            )[0]?.size,
          )
        : du(join(storeDir, "campaigns"));
      results.push({
        store,
        "year filled ms": filledMs,
        "months rolled up ms": rolledUpMs,
        "landings posted": result.requests.total,
        "non-2xx": result.non2xx,
        "visits counted": counted,
        "landings/s": Math.round(result.requests.total / (postedMs / 1000)),
        "report 28 days ms": await reportMs(env, addDays(today, -27)),
        "report a year ms": await reportMs(env, addDays(today, -DAYS + 1)),
        "POST /vitals CPU ms": beacon.cpuMs?.toFixed(3) ?? "n/a",
        "GET / CPU ms": home.cpuMs?.toFixed(3) ?? "n/a",
        "store MB": (size / 1024 / 1024).toFixed(1),
      });
    } finally {
      await app.stop();
    }
  }
} finally {
  await postgres.dispose();
  rmSync(work, { recursive: true, force: true });
}
console.log(
  `campaign figures at a year's scale: ${CAMPAIGNS} campaigns x ${PAGES} pages x ${DAYS} days, then ${LANDINGS} landing reports (goals: the report within 1 s, POST /vitals at most a page's CPU)`,
);
printTable(results);
