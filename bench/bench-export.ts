/**
 * `npm run bench:export`: the time and peak memory of `npm run leads -- --csv` (the built
 * command) over BENCH_LEADS (10 000) leads, on the data folder and on PostgreSQL (an embedded
 * one), beside `--json` over the same leads and `--csv` over a tenth of them. Each lead carries
 * a 600-character message in Hindi and English with line breaks, and a campaign source, and goes
 * to EmailJS, the webhook or both, in every state.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DeliveryRecord, LeadDestinations } from "../app/leads/lead";
import { ensureBuild } from "../scripts/lib/build.js";
import { root } from "../scripts/lib/server.js";
import { printTable } from "../scripts/lib/table.js";
import { importLeadsInto, writeLeadWith } from "../tests/support/lead-fixtures";
import { startPostgres } from "../tests/support/postgres";

if (process.argv.includes("--help")) {
  console.log(`usage: npm run bench:export

Time and peak RSS of npm run leads -- --csv over BENCH_LEADS (10000) leads, on the data folder
and on an embedded PostgreSQL, beside --json over the same leads and --csv over a tenth of them,
and both again with the heap held to 40 MB (--csv runs; --json, which holds every lead, runs out).`);
  process.exit(0);
}

const total = Number(process.env.BENCH_LEADS ?? 10_000);
/** The heap (old space, MB) the export is held to once: far less than the leads it writes. */
const SMALL_HEAP_MB = 40;
const record = (state: DeliveryRecord["state"], attempts: number, lastError: string | null = null) => {
  const at = new Date().toISOString();
  return { state, attempts, lastError, nextAttemptAt: at, queuedAt: at };
};
/** The destinations of the leads, in turn: delivered, failed at one, waiting, and inbox. */
const DESTINATIONS: LeadDestinations[] = [
  { emailjs: record("sent", 1), webhook: record("sent", 1) },
  { emailjs: record("sent", 1), webhook: record("sent", 2) },
  { emailjs: record("sent", 1) },
  { emailjs: record("sent", 1), webhook: record("failed", 3, "HTTP 410") },
  {
    emailjs: record("failed", 1, "EmailJS answered 412: Gmail_API: Invalid grant"),
    webhook: record("sent", 1),
  },
  { emailjs: record("sent", 1), webhook: record("pending", 3, "HTTP 502") },
  {},
];

ensureBuild();
const folder = mkdtempSync(join(tmpdir(), "bench-export-"));
const postgres = await startPostgres("bench-export-pg");
const rows: Array<Record<string, string | number>> = [];
try {
  for (const count of [Math.round(total / 10), total]) {
    const storeDir = join(folder, `leads-${count}`);
    writeLeads(storeDir, count);
    const url = await postgres.createDatabase();
    await importLeadsInto(url, storeDir);
    const emptyDir = join(folder, `empty-${count}`);
    for (const [store, env] of [
      ["data folder", { ENQUIRY_STORE_DIR: storeDir }],
      ["PostgreSQL", { ENQUIRY_STORE_DIR: emptyDir, DATABASE_URL: url }],
    ] as const) {
      const forms = count === total ? ["--csv", "--json"] : ["--csv"];
      for (const form of forms) {
        rows.push({ store, leads: count, form, heap: "default", ...(await measure([form], env)) });
      }
      // Node grows its heap before it collects, so the peak above is partly garbage: held to a
      // small heap, the export still runs (what it keeps at once is a page), where --json, which
      // holds every lead, runs out.
      if (count === total) {
        for (const form of ["--csv", "--json"]) {
          const capped = await measure([form], env, SMALL_HEAP_MB);
          rows.push({ store, leads: count, form, heap: `${SMALL_HEAP_MB} MB`, ...capped });
        }
      }
    }
  }
} finally {
  await postgres.dispose();
  rmSync(folder, { recursive: true, force: true });
}
console.log(`\nnpm run leads (build/leads.js), its standard output read through a pipe\n`);
printTable(rows);

function writeLeads(storeDir: string, count: number) {
  const start = Date.parse("2026-01-01T00:00:00Z");
  const paragraph =
    "नमस्ते, हमें अपने क्लिनिक के लिए एक वेबसाइट और बुकिंग ऐप चाहिए। We would like a quote, a timeline and examples of similar work 🙏\n";
  for (let index = 0; index < count; index += 1) {
    writeLeadWith(storeDir, {
      receivedAt: new Date(start + index * 60_000).toISOString(),
      destinations: DESTINATIONS[index % DESTINATIONS.length] ?? {},
      enquiry: {
        name: `आशा राव ${index}`,
        email: `asha${index}@example.in`,
        countryCode: "91",
        phoneNumber: String(9_800_000_000 + index),
        message: (index % 10 === 0 ? "=SUM(A1:A9) " : "") + paragraph.repeat(4),
      },
      source: {
        landing: "/",
        parameters: {
          utm_source: "google",
          utm_medium: "cpc",
          utm_campaign: "spring",
          gclid: `Cj0K${index}`,
        },
      },
    });
  }
}

/**
 * Runs the built command; its wall time, the bytes it wrote, and its peak RSS (reported by the
 * process itself at exit). With `heapMb`, its heap is held to that size: running out is a result.
 */
async function measure(args: string[], env: Record<string, string>, heapMb?: number) {
  const reportPeak =
    "data:text/javascript,process.on('exit',()=>process.stderr.write('peak-rss '+process.resourceUsage().maxRSS+'\\n'))";
  const started = performance.now();
  const heap = heapMb === undefined ? [] : [`--max-old-space-size=${heapMb}`];
  const child = spawn(
    process.execPath,
    [...heap, "--import", reportPeak, join(root, "build/leads.js"), ...args],
    {
      cwd: root,
      env: { PATH: process.env.PATH ?? "", NODE_ENV: "production", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let bytes = 0;
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    bytes += chunk.length;
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk;
  });
  const [code] = (await once(child, "exit")) as [number | null];
  const seconds = (performance.now() - started) / 1000;
  const peakKb = Number(/peak-rss (\d+)/.exec(stderr)?.[1]);
  if (heapMb !== undefined && stderr.includes("heap out of memory")) {
    return { "output MB": (bytes / 1e6).toFixed(1), seconds: "out of memory", "peak RSS MB": "" };
  }
  if (code !== 0 || !Number.isFinite(peakKb)) throw new Error(`leads ${args.join(" ")} failed: ${stderr}`);
  return {
    "output MB": (bytes / 1e6).toFixed(1),
    seconds: seconds.toFixed(2),
    "peak RSS MB": Math.round(peakKb / 1024),
  };
}
