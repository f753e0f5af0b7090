/**
 * `npm run bench:withdraw`: how long the withdrawal page takes to answer a try that matches (and
 * erases a lead) and one that does not, on the data folder and on PostgreSQL (an embedded one):
 * the medians of BENCH_TRIES (20) of each, one after the other, and their difference, which the
 * issue bounds at 50 ms. Each lead reached the webhook first, so a matching try also records its
 * notice and wakes the loop that tells the webhook. Loopback only.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ANSWER_FLOOR_MS } from "../app/withdrawal/action.server";
import { ensureBuild } from "../scripts/lib/build.js";
import { printTable } from "../scripts/lib/table.js";
import { postEnquiry } from "../tests/support/lead-fixtures";
import { startPostgres } from "../tests/support/postgres";
import { databaseReady, startServer } from "../tests/support/server-process";
import { startWebhookReceiver } from "../tests/support/webhook-receiver";

const tries = Number(process.env.BENCH_TRIES ?? 20);
/** The difference of the medians the issue allows. */
const BOUND_MS = 50;

if (process.argv.includes("--help")) {
  console.log(`usage: npm run bench:withdraw

On the built server, on the data folder and on PostgreSQL (embedded): ${tries} withdrawals that
match a lead (and erase it) and ${tries} that do not (the same references, another address),
each pair one after the other; prints the medians, p90 and the largest of each, and whether their
medians differ by at most ${BOUND_MS} ms. Every answer comes no sooner than ${ANSWER_FLOOR_MS} ms.
BENCH_TRIES sets the number of tries of each kind.`);
  process.exit(0);
}

const SECRET = `whsec_${Buffer.from("bench-withdraw-secret-32-bytes!!").toString("base64")}`;
const serverEnv = {
  ENQUIRY_RATE_LIMIT: "0",
  ENQUIRY_FLOOD_LIMIT: "0",
  WITHDRAWAL_REFERENCE_LIMIT: "0",
  WITHDRAWAL_RATE_LIMIT: "0",
  WITHDRAWAL_SITE_LIMIT: "0",
  NOTICE_SECRET: "bench-withdraw-notice-secret-0123456789abcdef",
};

ensureBuild();
const folder = mkdtempSync(join(tmpdir(), "bench-withdraw-"));
const postgres = await startPostgres("bench-withdraw-pg");
const rows: Array<Record<string, string>> = [];
try {
  rows.push(...(await run("data folder", null)));
  rows.push(...(await run("PostgreSQL", await postgres.createDatabase())));
} finally {
  await postgres.dispose();
  rmSync(folder, { recursive: true, force: true });
}
console.log(
  `\n${tries} tries of each kind, each pair one after the other, the answer's floor ${ANSWER_FLOOR_MS} ms\n`,
);
printTable(rows);

/** The tries on one store; a row for each kind, and one for the difference of the medians. */
async function run(store: string, databaseUrl: string | null): Promise<Array<Record<string, string>>> {
  const hook = await startWebhookReceiver({ secret: SECRET });
  const server = await startServer({
    env: {
      ...serverEnv,
      ENQUIRY_STORE_DIR: join(folder, store.replace(" ", "-")),
      LEAD_WEBHOOK_URL: hook.url,
      LEAD_WEBHOOK_SECRET: SECRET,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
  });
  try {
    if (databaseUrl) await databaseReady(server.url);
    const references: string[] = [];
    for (let index = 0; index < tries; index += 1) {
      const response = await postEnquiry(server.url, {
        name: `Bench visitor ${index}`,
        email: `visitor${index}@example.in`,
        countryCode: "91",
        phoneNumber: String(9_000_000_000 + index),
        message: "A customer portal with payments.",
      });
      references.push(
        /\.(NRM-[0-9A-Z]{4}-[0-9A-Z]{4})\./.exec(response.headers.get("location") ?? "")?.[1] ?? "",
      );
    }
    // Every lead delivered to the webhook first: a match then has a destination to tell.
    while (hook.requests.length < tries) await new Promise((resolve) => setTimeout(resolve, 100));
    const unmatched: number[] = [];
    const matched: number[] = [];
    for (const [index, reference] of references.entries()) {
      unmatched.push(await timedTry(server.url, reference, "nobody@example.in"));
      matched.push(await timedTry(server.url, reference, `visitor${index}@example.in`));
    }
    while (hook.requests.length < 2 * tries) await new Promise((resolve) => setTimeout(resolve, 100));
    const median = (times: number[]) =>
      percentile(
        [...times].sort((a, b) => a - b),
        50,
      );
    const row = (kind: string, times: number[]) => {
      const sorted = [...times].sort((a, b) => a - b);
      return {
        store,
        tries: kind,
        median: `${percentile(sorted, 50).toFixed(1)} ms`,
        p90: `${percentile(sorted, 90).toFixed(1)} ms`,
        max: `${percentile(sorted, 100).toFixed(1)} ms`,
      };
    };
    const difference = Math.abs(median(matched) - median(unmatched));
    return [
      row("matching", matched),
      row("unmatched", unmatched),
      {
        store,
        tries: "difference of the medians",
        median: `${difference.toFixed(1)} ms (${difference <= BOUND_MS ? "within" : "beyond"} ${BOUND_MS} ms)`,
        p90: "",
        max: "",
      },
    ];
  } finally {
    await server.stop();
    await hook.close();
  }
}

/** The nearest-rank percentile `p` of `values` (ms). */
function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

/** One withdrawal as the page's form posts it: the time until its answer (303). */
async function timedTry(url: string, reference: string, email: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${url}/privacy/withdraw`, {
    method: "POST",
    body: new URLSearchParams({ reference, email, lang: "en" }),
    redirect: "manual",
  });
  await response.arrayBuffer();
  if (response.status !== 303) throw new Error(`a withdrawal was answered ${response.status}`);
  return performance.now() - started;
}
