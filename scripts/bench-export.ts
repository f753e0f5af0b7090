/**
 * `npm run bench:export`: the time and peak memory of `npm run leads -- --csv` (the built
 * command) over BENCH_LEADS (10 000) leads, on the data folder and on PostgreSQL (an embedded
 * one), beside `--json` over the same leads and `--csv` over a tenth of them. Each lead carries
 * a 600-character message in Hindi and English with line breaks, and a campaign source.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LeadState } from "../app/leads/lead";
import { startPostgres } from "../tests/support/postgres";
import { importLeadsInto, writeLeadFile } from "./lib/lead-fixtures";
import { ensureBuild, root } from "./lib/server.js";
import { printTable } from "./lib/table.js";

if (process.argv.includes("--help")) {
  console.log(`usage: npm run bench:export

Time and peak RSS of npm run leads -- --csv over BENCH_LEADS (10000) leads, on the data folder
and on an embedded PostgreSQL, beside --json over the same leads and --csv over a tenth of them.`);
  process.exit(0);
}

const total = Number(process.env.BENCH_LEADS ?? 10_000);
const STATES: LeadState[] = ["sent", "sent", "sent", "failed", "pending", "inbox"];

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
      for (const form of forms) rows.push({ store, leads: count, form, ...(await measure([form], env)) });
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
    writeLeadFile(storeDir, {
      receivedAt: new Date(start + index * 60_000).toISOString(),
      state: STATES[index % STATES.length] ?? "sent",
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

/** Runs the built command; its wall time, the bytes it wrote, and its peak RSS (reported by the process itself at exit). */
async function measure(args: string[], env: Record<string, string>) {
  const reportPeak =
    "data:text/javascript,process.on('exit',()=>process.stderr.write('peak-rss '+process.resourceUsage().maxRSS+'\\n'))";
  const started = performance.now();
  const child = spawn(process.execPath, ["--import", reportPeak, join(root, "build/leads.js"), ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? "", NODE_ENV: "production", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
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
  if (code !== 0 || !Number.isFinite(peakKb)) throw new Error(`leads ${args.join(" ")} failed: ${stderr}`);
  return {
    "output MB": (bytes / 1e6).toFixed(1),
    seconds: seconds.toFixed(2),
    "peak RSS MB": Math.round(peakKb / 1024),
  };
}
