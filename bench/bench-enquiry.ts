/**
 * Posts 200 valid enquiries to the BUILT app (run `npx remix build` first) with bounded
 * concurrency, once with EmailJS configured (a local HTTPS fake on 127.0.0.2)
 * and once with the lead store alone (no EmailJS), and prints latency percentiles and counts.
 * Every enquiry is stored before it is answered; "delivered" counts what reached EmailJS by the
 * end of the run (delivery is paced, 50 ms here) and what the store holds.
 * Run: npm run bench:enquiry   (npx vite-node bench/bench-enquiry.ts)
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { emailJsEnv, startFakeEmailJs } from "../tests/support/fake-emailjs";
import { readLeads } from "../tests/support/lead-fixtures";
import { startServer } from "../tests/support/server-process";

if (process.argv.includes("--help")) {
  console.log(
    "usage: npm run bench:enquiry\n\nPosts 200 enquiries, 10 at a time, to the built server (EmailJS fake on 127.0.0.2, then the store alone) and prints p50/p99 latency.",
  );
  process.exit(0);
}

const TOTAL = 200;
const CONCURRENCY = 10;

if (!existsSync(join(process.cwd(), "build", "index.js"))) {
  console.error("No build found: run `npx remix build` first.");
  process.exit(1);
}

function body(index: number): string {
  return new URLSearchParams({
    company_website: "",
    name: `Bench visitor ${index}`,
    email: `visitor${index}@example.in`,
    countryCode: "91",
    phoneNumber: String(9_000_000_000 + index),
    message: "We would like a quote for a customer portal with payments and a mobile app.",
  }).toString();
}

async function run(url: string): Promise<{ latencies: number[]; statuses: Map<number, number> }> {
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  let next = 0;
  const worker = async () => {
    while (next < TOTAL) {
      const index = next++;
      const started = performance.now();
      const response = await fetch(`${url}/?index`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: body(index),
        redirect: "manual",
      });
      await response.arrayBuffer();
      latencies.push(performance.now() - started);
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return { latencies, statuses };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

function report(label: string, result: Awaited<ReturnType<typeof run>>, delivered: number, seconds: number) {
  const sorted = [...result.latencies].sort((a, b) => a - b);
  const statuses = [...result.statuses].map(([status, count]) => `${status}×${count}`).join(" ");
  console.log(
    `${label}: ${TOTAL} enquiries, concurrency ${CONCURRENCY}, ${seconds.toFixed(2)} s ` +
      `(${(TOTAL / seconds).toFixed(0)}/s) | p50 ${percentile(sorted, 50).toFixed(1)} ms, ` +
      `p99 ${percentile(sorted, 99).toFixed(1)} ms, max ${percentile(sorted, 100).toFixed(1)} ms | ` +
      `responses ${statuses} | delivered ${delivered}`,
  );
}

const fake = await startFakeEmailJs();
const folder = mkdtempSync(join(tmpdir(), "bench-enquiry-"));
try {
  const emailjs = await startServer({
    env: {
      EMAILJS_SERVICE_ID: "service_bench",
      EMAILJS_TEMPLATE_ID: "template_bench",
      EMAILJS_PUBLIC_KEY: "public-bench",
      EMAILJS_PRIVATE_KEY: "private-bench",
      ...emailJsEnv(fake),
      ENQUIRY_RATE_LIMIT: "0",
      ENQUIRY_STORE_DIR: join(folder, "emailjs"),
      ENQUIRY_SEND_INTERVAL_MS: "50",
    },
  });
  try {
    const started = performance.now();
    const result = await run(emailjs.url);
    report("emailjs (fake provider)", result, fake.requests.length, (performance.now() - started) / 1000);
  } finally {
    await emailjs.stop();
  }

  const storeDir = join(folder, "store");
  const store = await startServer({ env: { ENQUIRY_STORE_DIR: storeDir, ENQUIRY_RATE_LIMIT: "0" } });
  try {
    const started = performance.now();
    const result = await run(store.url);
    report(
      "lead store only (inbox)",
      result,
      readLeads(storeDir).length,
      (performance.now() - started) / 1000,
    );
  } finally {
    await store.stop();
  }
} finally {
  await fake.close();
  rmSync(folder, { recursive: true, force: true });
}
