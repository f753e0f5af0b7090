/**
 * `npm run load-test`: load and fault tests of the built server, loopback only, bounded in time.
 *  1. 50 concurrent clients for LOAD_SECONDS (60) on / and the policy pages: no errors, no
 *     non-2xx, and a flat server RSS (growth after warm-up <= 50 MB).
 *  2. 200 enquiries in one burst per case: the store alone (no EmailJS), EmailJS healthy,
 *     slow (2 s), failing (500) then recovering, hanging; each reports answered / stored /
 *     delivered / failed / pending / duplicates and the submit latency. Never a 5xx, every
 *     enquiry answered 303 is in the store, and delivered unless EmailJS is still slow or hanging.
 *  3. A SIGKILL in the middle of a burst while EmailJS fails, then a restart with EmailJS
 *     healthy: every enquiry answered 303 reaches EmailJS.
 *  4. Submit latency: 200 enquiries, 10 in flight, EmailJS healthy and hanging.
 *  5. Submit latency of 50 clients with the data folder beside PostgreSQL (an embedded one,
 *     DATABASE_URL): p50 and p99 at a steady 50 enquiries/s (goal: p99 < 50 ms), the capacity
 *     back to back, and every enquiry answered 303 delivered once.
 *  6. Expensive requests: each request whose cost could grow with its size (scripts/lib/
 *     expensive-requests.ts), one at a time, beside GET /: its median time over the loopback
 *     and the server's main-thread CPU time per request (goal: none over 20 ms).
 * Delivery is paced at ENQUIRY_SEND_INTERVAL_MS=50 here (1 s in production) so bursts drain in
 * seconds. The EmailJS stand-in listens on LOAD_EMAILJS_HOST (127.0.0.3), on a free port.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { ensureBuild } from "../scripts/lib/build.js";
import { mb, root, rssBytes, sleep } from "../scripts/lib/server.js";
import { printTable } from "../scripts/lib/table.js";
import {
  emailJsEnv,
  type FakeEmailJs,
  type FakeResponse,
  startFakeEmailJs,
} from "../tests/support/fake-emailjs";
import { readLeads } from "../tests/support/lead-fixtures";
import { startPostgres } from "../tests/support/postgres";
import { databaseReady, type RunningServer, startServer } from "../tests/support/server-process";
import { type EnquiryForm, fillEnquiry, parseEnquiryForm } from "./lib/enquiry-form";
import {
  type LoadResult,
  loadForm,
  percentile,
  postEnquiries,
  postEnquiriesAtRate,
  statusSummary,
} from "./lib/enquiry-load";
import { buildVersion, expensiveRequests, type Measured, measure } from "./lib/expensive-requests";

const requestCpuGoalMs = 20;
if (process.argv.includes("--help")) {
  console.log(`usage: npm run load-test [-- --only 1,6]

Load and fault tests of the built server (built first when missing), loopback only, in six parts: 1 page load, 2 enquiry bursts,
3 a crash mid-burst, 4 submit latency, 5 submit latency of 50 clients on the data folder and on
PostgreSQL, 6 expensive requests (each request whose cost could grow with its size, one at a
time: its server time beside GET /; goal: none over ${requestCpuGoalMs} ms of the server's CPU).
--only runs the parts listed. Environment:
  LOAD_SECONDS        seconds of page load (60)
  LOAD_ENQUIRIES      enquiries per burst (200)
  LOAD_DRAIN_SECONDS  longest wait for deliveries after a burst (30)
  LOAD_EMAILJS_HOST   loopback address of the EmailJS stand-in (127.0.0.3)
  LOAD_STORE_SECONDS    seconds of 50 enquiries/s per store in part 5 (10)
  LOAD_STORE_ENQUIRIES  enquiries back to back per store in part 5 (1000)
  LOAD_REQUEST_SECONDS  seconds of repeats per request in part 6, at most 200 (2)`);
  process.exit(0);
}

const seconds = Number(process.env.LOAD_SECONDS ?? 60);
const connections = 50;
const burst = Number(process.env.LOAD_ENQUIRIES ?? 200);
const maxGrowth = 50 * 1024 * 1024;
const pages = ["/", "/terms-conditions", "/privacy-policy", "/cookie-policy"];
const failureNotice = "Failed to send email. Please try again.";
const storeEnquiries = Number(process.env.LOAD_STORE_ENQUIRIES ?? 1000);
const storeSeconds = Number(process.env.LOAD_STORE_SECONDS ?? 10);
const submitP99GoalMs = 50;
const onlyFlag = process.argv.indexOf("--only");
const parts = new Set(
  onlyFlag === -1 ? [1, 2, 3, 4, 5, 6] : (process.argv[onlyFlag + 1] ?? "").split(",").map(Number),
);

const failures: string[] = [];
const rows: Array<Record<string, string | number>> = [];
const dir = mkdtempSync(join(tmpdir(), "load-test-"));
const emailJsHost = process.env.LOAD_EMAILJS_HOST ?? "127.0.0.3";
const drainMs = Number(process.env.LOAD_DRAIN_SECONDS ?? 30) * 1000;
let stores = 0;
function freshStore(): string {
  stores += 1;
  return join(dir, `store-${stores}`);
}
const baseEnv = {
  ENQUIRY_STORE_DIR: join(dir, "pages"),
  ENQUIRY_RATE_LIMIT: "0",
  ENQUIRY_SEND_INTERVAL_MS: "50",
};

ensureBuild();
try {
  if (parts.has(1)) await pageLoad();
  if (parts.has(2)) await enquiryBursts();
  if (parts.has(3)) await crashAndRestart();
  if (parts.has(4)) await submitLatency();
  if (parts.has(5)) await storesCompared();
  if (parts.has(6)) await costlyRequests();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
if (failures.length > 0) {
  console.log(`\nFAILED:\n${failures.map((failure) => `  - ${failure}`).join("\n")}`);
  process.exit(1);
}
console.log("\nAll load and fault checks passed.");

async function pageLoad() {
  const app = await startServer({ cwd: root, env: baseEnv, quiet: true });
  try {
    console.log(`\n1. ${connections} clients for ${seconds} s on ${pages.join(", ")}`);
    const samples: number[] = [];
    const start = rssBytes(app.pid) ?? 0;
    const sampler = setInterval(() => samples.push(rssBytes(app.pid) ?? 0), 1_000);
    const result = await autocannon({
      url: app.url,
      connections,
      duration: seconds,
      requests: pages.map((path) => ({ method: "GET" as const, path })),
    });
    clearInterval(sampler);
    const warmupEnd =
      samples[Math.min(samples.length - 1, Math.max(0, Math.round(seconds / 6) - 1))] ?? start;
    const peak = Math.max(start, ...samples);
    const end = samples.at(-1) ?? start;
    printTable([
      {
        requests: result.requests.total,
        "req/s": Math.round(result.requests.average),
        "p99 ms": result.latency.p99,
        errors: result.errors,
        timeouts: result.timeouts,
        "non-2xx": result.non2xx,
        "RSS start": mb(start),
        "RSS after warm-up": mb(warmupEnd),
        "RSS peak": mb(peak),
        "RSS end": mb(end),
      },
    ]);
    if (result.errors + result.timeouts > 0)
      failures.push(`page load: ${result.errors} errors, ${result.timeouts} timeouts`);
    if (result.non2xx > 0) failures.push(`page load: ${result.non2xx} non-2xx answers`);
    if (end - warmupEnd > maxGrowth)
      failures.push(`page load: RSS grew ${mb(end - warmupEnd)} after warm-up`);
    await checkHealth(app.url, "after the page load");
  } finally {
    await app.stop();
  }
}

interface Outcome {
  marker: string;
  status: number;
  ms: number;
  kind: "sent" | "failure notice" | "server error" | "other";
  detail: string;
}

function messageOf(marker: string): string {
  return `Load-test enquiry ${marker}`;
}

async function sendBurst(
  url: string,
  label: string,
  options: { inFlight?: number; onAnswer?: (answered: number) => void } = {},
) {
  // A fresh form per enquiry, as each visitor would load the page (tokens may be single-use).
  const forms = await Promise.all(
    Array.from({ length: burst }, async () => {
      const html = await (await fetch(`${url}/`)).text();
      return parseEnquiryForm(html, `${url}/`);
    }),
  );
  if (forms.some((form) => form === null)) {
    failures.push(
      `${label}: no enquiry form (<form method="post"> with name, email, countryCode, phoneNumber, message) on /`,
    );
    return null;
  }
  const run = Date.now().toString(36);
  // All at once, or `inFlight` at a time (then `onAnswer` hears each 303 as it comes).
  const send = async (form: EnquiryForm, index: number): Promise<Outcome> => {
    const marker = `${run}-${label.replace(/\W+/g, "")}-${index}`;
    const started = performance.now();
    try {
      const response = await fetch(form.action, {
        method: "POST",
        body: fillEnquiry(form, marker),
        headers: { Origin: url },
        redirect: "manual",
        signal: AbortSignal.timeout(60_000),
      });
      const text = await response.text();
      const kind =
        response.status === 303
          ? "sent"
          : response.status >= 500
            ? "server error"
            : text.includes(failureNotice)
              ? "failure notice"
              : "other";
      return {
        marker,
        status: response.status,
        ms: performance.now() - started,
        kind,
        detail: text.slice(0, 200),
      };
    } catch (error) {
      return {
        marker,
        status: 0,
        ms: performance.now() - started,
        kind: "server error",
        detail: String(error),
      };
    }
  };
  const all = forms as EnquiryForm[];
  if (!options.inFlight) return Promise.all(all.map(send));
  const outcomes: Outcome[] = [];
  let next = 0;
  let answered = 0;
  const worker = async () => {
    while (next < all.length) {
      const index = next++;
      const outcome = await send(all[index] as EnquiryForm, index);
      outcomes.push(outcome);
      if (outcome.kind === "sent") options.onAnswer?.(++answered);
    }
  };
  await Promise.all(Array.from({ length: options.inFlight }, worker));
  return outcomes;
}

function count(outcomes: Outcome[], kind: Outcome["kind"]): number {
  return outcomes.filter((outcome) => outcome.kind === kind).length;
}

/** Markers of the enquiries the fake received, with how often each arrived. */
function arrivals(fake: FakeEmailJs): Map<string, number> {
  const seen = new Map<string, number>();
  for (const request of fake.requests) {
    const message =
      (request.body as { template_params?: { message?: string } }).template_params?.message ?? "";
    seen.set(message, (seen.get(message) ?? 0) + 1);
  }
  return seen;
}

interface Case {
  label: string;
  /** How EmailJS answers during the burst; none: EmailJS is not configured (the store is the inbox). */
  during?: FakeResponse;
  /** How it answers once the burst is answered (recovery). */
  after?: FakeResponse;
  /** Whether every lead must end up sent before the drain time is over. */
  mustDeliver: boolean;
}

async function runCase(fake: FakeEmailJs, test: Case) {
  const storeDir = freshStore();
  fake.reset();
  if (test.during) fake.respondWith(test.during);
  const app = await startServer({
    cwd: root,
    quiet: true,
    env: test.during
      ? { ...baseEnv, ...loadEmailJsEnv(fake), ENQUIRY_STORE_DIR: storeDir }
      : { ...baseEnv, ENQUIRY_STORE_DIR: storeDir },
  });
  try {
    const started = Date.now();
    const outcomes = await sendBurst(app.url, test.label);
    if (!outcomes) return;
    const answeredAt = Date.now();
    if (test.after) {
      // Only what EmailJS accepted counts as delivered: forget what it refused.
      fake.requests.length = 0;
      fake.respondWith(test.after);
    }
    const answered = outcomes.filter((outcome) => outcome.kind === "sent");
    const settledCount = () => readLeads(storeDir).filter((lead) => lead.state !== "pending").length;
    const deadline = Date.now() + drainMs;
    while (
      test.during &&
      test.during.kind !== "hang" &&
      settledCount() < answered.length &&
      Date.now() < deadline
    )
      await sleep(250);
    const leads = readLeads(storeDir);
    const storedMessages = new Set(leads.map((lead) => lead.enquiry.message));
    const state = (name: string) => leads.filter((lead) => lead.state === name).length;
    const seen = arrivals(fake);
    const accepted = test.after?.kind === "ok" || test.during?.kind === "ok";
    const duplicates = accepted ? [...seen.values()].reduce((sum, times) => sum + times - 1, 0) : 0;
    rows.push({
      burst: test.label,
      answered: `${answered.length}/${outcomes.length}`,
      "failure notice": count(outcomes, "failure notice"),
      "5xx/errors": count(outcomes, "server error"),
      stored: leads.length,
      delivered: state("sent"),
      failed: state("failed"),
      pending: state("pending"),
      inbox: state("inbox"),
      duplicates,
      "p50 ms": percentile(
        outcomes.map((outcome) => outcome.ms),
        50,
      ),
      "p99 ms": percentile(
        outcomes.map((outcome) => outcome.ms),
        99,
      ),
      "burst s": ((answeredAt - started) / 1000).toFixed(1),
      "drained s": test.during ? ((Date.now() - answeredAt) / 1000).toFixed(1) : "-",
    });
    const lost = answered.filter((outcome) => !storedMessages.has(messageOf(outcome.marker)));
    if (lost.length > 0) failures.push(`${test.label}: ${lost.length} answered 303 but not in the store`);
    if (count(outcomes, "server error") > 0) {
      const first = outcomes.find((outcome) => outcome.kind === "server error");
      failures.push(
        `${test.label}: ${count(outcomes, "server error")} answered 5xx or failed (${first?.status} ${first?.detail})`,
      );
    }
    if (count(outcomes, "other") + count(outcomes, "failure notice") > 0)
      failures.push(`${test.label}: ${outcomes.length - answered.length} enquiries not answered 303`);
    if (test.mustDeliver) {
      const undelivered = answered.filter((outcome) => !seen.has(messageOf(outcome.marker)));
      if (undelivered.length > 0)
        failures.push(
          `${test.label}: ${undelivered.length} answered 303 never reached EmailJS within ${drainMs / 1000} s`,
        );
    }
    await checkHealth(app.url, `after the burst "${test.label}"`);
  } finally {
    await app.stop();
  }
}

function loadEmailJsEnv(fake: FakeEmailJs): Record<string, string> {
  return {
    EMAILJS_SERVICE_ID: "service_load",
    EMAILJS_TEMPLATE_ID: "template_load",
    EMAILJS_PUBLIC_KEY: "public_load",
    EMAILJS_PRIVATE_KEY: "private_load",
    ...emailJsEnv(fake),
  };
}

async function enquiryBursts() {
  console.log(
    `\n2. ${burst} enquiries in one burst per case (delivery paced at 50 ms, drain up to ${drainMs / 1000} s)`,
  );
  const fake = await startFakeEmailJs(emailJsHost);
  try {
    await runCase(fake, { label: "store only (no EmailJS)", mustDeliver: false });
    await runCase(fake, { label: "EmailJS healthy", during: { kind: "ok" }, mustDeliver: true });
    await runCase(fake, {
      label: "EmailJS slow (2 s)",
      during: { kind: "ok", delayMs: 2_000 },
      mustDeliver: false,
    });
    await runCase(fake, {
      label: "EmailJS failing (500) then recovering",
      during: { kind: "status", status: 500, text: "Internal Server Error" },
      after: { kind: "ok" },
      mustDeliver: true,
    });
    await runCase(fake, { label: "EmailJS hanging", during: { kind: "hang" }, mustDeliver: false });
    printTable(rows);
  } finally {
    await fake.close();
  }
}

async function crashAndRestart() {
  console.log(
    `\n3. SIGKILL in the middle of a ${burst}-enquiry burst while EmailJS fails, then a restart with EmailJS healthy`,
  );
  const fake = await startFakeEmailJs(emailJsHost);
  const storeDir = freshStore();
  const env = { ...baseEnv, ...loadEmailJsEnv(fake), ENQUIRY_STORE_DIR: storeDir };
  let second: RunningServer | undefined;
  try {
    fake.respondWith({ kind: "status", status: 500, text: "Internal Server Error" });
    const first = await startServer({ cwd: root, quiet: true, env });
    // 20 visitors at a time; killed once half the burst is answered, with the next ones in flight.
    const outcomes = await sendBurst(first.url, "crash", {
      inFlight: 20,
      onAnswer: (answered) => {
        if (answered === burst / 2) first.process.kill("SIGKILL");
      },
    });
    await first.stop();
    if (!outcomes) return;
    const answered = outcomes.filter((outcome) => outcome.kind === "sent");
    const storedBeforeRestart = readLeads(storeDir).length;
    fake.reset();
    second = await startServer({ cwd: root, quiet: true, env });
    const started = Date.now();
    const deadline = started + Math.max(drainMs, 60_000);
    const delivered = () =>
      answered.filter((outcome) => arrivals(fake).has(messageOf(outcome.marker))).length;
    while (
      (delivered() < answered.length || arrivals(fake).size < storedBeforeRestart) &&
      Date.now() < deadline
    )
      await sleep(250);
    await sleep(500);
    const seen = arrivals(fake);
    const duplicates = [...seen.values()].reduce((sum, times) => sum + times - 1, 0);
    printTable([
      {
        "answered 303 before the kill": answered.length,
        "unanswered (killed)": outcomes.length - answered.length,
        "stored at restart": storedBeforeRestart,
        "answered 303 and delivered": delivered(),
        "delivered in all": seen.size,
        duplicates,
        "lost (303, never delivered)": answered.length - delivered(),
        "drained s": ((Date.now() - started) / 1000).toFixed(1),
      },
    ]);
    if (delivered() < answered.length)
      failures.push(`crash: ${answered.length - delivered()} enquiries answered 303 never reached EmailJS`);
    await checkHealth(second.url, "after the restart");
  } finally {
    await second?.stop();
    await fake.close();
  }
}

/** Submit latency as visitors see it: 200 enquiries, 10 at a time (as the enquiry bench does). */
async function submitLatency() {
  console.log("\n4. Submit latency: 200 enquiries, 10 in flight at a time");
  const fake = await startFakeEmailJs(emailJsHost);
  const table: Array<Record<string, string | number>> = [];
  try {
    for (const [label, response] of [
      ["EmailJS healthy", { kind: "ok" }],
      ["EmailJS hanging", { kind: "hang" }],
    ] as Array<[string, FakeResponse]>) {
      fake.reset();
      fake.respondWith(response);
      const app = await startServer({
        cwd: root,
        quiet: true,
        env: { ...baseEnv, ...loadEmailJsEnv(fake), ENQUIRY_STORE_DIR: freshStore() },
      });
      try {
        const html = await (await fetch(`${app.url}/`)).text();
        const form = parseEnquiryForm(html, `${app.url}/`);
        if (!form) return failures.push("latency: no enquiry form on /");
        const latencies: number[] = [];
        const statuses = new Map<number, number>();
        let next = 0;
        const worker = async () => {
          while (next < 200) {
            const index = next++;
            const started = performance.now();
            const answer = await fetch(form.action, {
              method: "POST",
              body: fillEnquiry(form, `latency-${label.replace(/\W+/g, "")}-${index}`),
              redirect: "manual",
            });
            await answer.arrayBuffer();
            latencies.push(performance.now() - started);
            statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          }
        };
        await Promise.all(Array.from({ length: 10 }, worker));
        table.push({
          case: label,
          responses: [...statuses].map(([status, times]) => `${status}×${times}`).join(" "),
          "p50 ms": percentile(latencies, 50),
          "p99 ms": percentile(latencies, 99),
          "max ms": percentile(latencies, 100),
        });
        if ((statuses.get(303) ?? 0) !== 200)
          failures.push(`latency, ${label}: not every enquiry answered 303`);
      } finally {
        await app.stop();
      }
    }
    printTable(table);
  } finally {
    await fake.close();
  }
}

/**
 * 5. Submit latency of 50 clients on a server on the data folder, then on one on PostgreSQL (an
 * embedded server, a fresh database), EmailJS healthy, after 50 warm-up enquiries. Two ways:
 * - at a steady rate (an open loop): each client posts one enquiry a second, whether or not its
 *   last answer came, as visitors do. The goal (p99 < 50 ms) is judged here.
 * - back to back (a closed loop): each client posts its next enquiry as soon as it has its
 *   answer. That measures capacity: the clients keep 50 enquiries waiting at every moment, so
 *   each answer waits for about 49 others (latency ≈ 50 / enquiries per second).
 * Every enquiry answered 303 must reach EmailJS once.
 */
async function storesCompared() {
  const cores = availableParallelism();
  console.log(
    `\n5. Submit latency of ${connections} clients, EmailJS healthy, the data folder beside PostgreSQL: ` +
      `${connections} enquiries/s for ${storeSeconds} s (goal p99 < ${submitP99GoalMs} ms), then ` +
      `${storeEnquiries} back to back. The clients, the server and PostgreSQL share this machine's ` +
      `${cores} cores; "load" is its 1-minute load average as each run starts (above ${cores}, other ` +
      "work on the machine slows every figure).",
  );
  const fake = await startFakeEmailJs(emailJsHost);
  const postgres = await startPostgres("load-test-pg");
  const table: Array<Record<string, string | number>> = [];
  try {
    for (const store of ["data folder", "PostgreSQL"]) {
      fake.reset();
      const database: Record<string, string> =
        store === "PostgreSQL" ? { DATABASE_URL: await postgres.createDatabase() } : {};
      const app = await startServer({
        cwd: root,
        quiet: true,
        env: {
          ...baseEnv,
          ...loadEmailJsEnv(fake),
          ...database,
          ENQUIRY_STORE_DIR: freshStore(),
          ENQUIRY_FLOOD_LIMIT: "0",
          ENQUIRY_SEND_INTERVAL_MS: "0",
        },
      });
      try {
        if (store === "PostgreSQL") {
          const ready = await databaseReady(app.url).then(
            () => null,
            (error: Error) => error.message,
          );
          if (ready) {
            failures.push(`${store}: ${ready}`);
            continue;
          }
        }
        const form = await loadForm(app.url);
        const label = store.replace(/\W+/g, "");
        await postEnquiries([form], { clients: connections, total: connections, label: "warm-up" });
        const steadyLoad = loadAverage();
        const steady = await postEnquiriesAtRate([form], {
          clients: connections,
          intervalMs: 1_000,
          seconds: storeSeconds,
          label: `${label}-steady`,
        });
        const backToBackLoad = loadAverage();
        const backToBack = await postEnquiries([form], {
          clients: connections,
          total: storeEnquiries,
          label: `${label}-closed`,
        });
        const sentAt = Date.now();
        const deadline = sentAt + drainMs;
        const answered = [...steady.answered, ...backToBack.answered];
        const undelivered = () => {
          const seen = arrivals(fake);
          return answered.filter((marker) => !seen.has(messageOf(marker)));
        };
        while (undelivered().length > 0 && Date.now() < deadline) await sleep(250);
        const seen = arrivals(fake);
        const duplicates = answered.filter((marker) => (seen.get(messageOf(marker)) ?? 0) > 1).length;
        const p99 = Number(percentile(steady.latencies, 99));
        const row = (run: string, result: LoadResult, load: string, goal: string) => ({
          store,
          run,
          load,
          responses: statusSummary(result.statuses),
          "enquiries/s": Math.round(result.latencies.length / result.seconds),
          "p50 ms": percentile(result.latencies, 50),
          "p99 ms": percentile(result.latencies, 99),
          "max ms": percentile(result.latencies, 100),
          goal,
        });
        table.push(
          row(`${connections}/s steady`, steady, steadyLoad, p99 < submitP99GoalMs ? "met" : "missed"),
        );
        table.push(row("back to back", backToBack, backToBackLoad, "(capacity)"));
        console.log(
          `${store}: delivered ${answered.length - undelivered().length} of ${answered.length} in ` +
            `${((Date.now() - sentAt) / 1000).toFixed(1)} s, ${duplicates} twice`,
        );
        for (const [run, result, total] of [
          ["steady", steady, steady.latencies.length],
          ["back to back", backToBack, storeEnquiries],
        ] as const) {
          if ((result.statuses.get(303) ?? 0) !== total)
            failures.push(
              `${store}, ${run}: not every enquiry answered 303 (${statusSummary(result.statuses)})`,
            );
        }
        if (undelivered().length > 0)
          failures.push(`${store}: ${undelivered().length} answered 303 never reached EmailJS`);
        if (duplicates > 0) failures.push(`${store}: ${duplicates} enquiries reached EmailJS twice`);
        if (p99 >= submitP99GoalMs)
          failures.push(
            `${store}: submit p99 ${p99} ms at ${connections} enquiries/s (goal < ${submitP99GoalMs} ms; load average ${steadyLoad} on ${cores} cores)`,
          );
      } finally {
        await app.stop();
      }
    }
    printTable(table);
  } finally {
    await postgres.dispose();
    await fake.close();
  }
}

/**
 * 6. Each request whose cost could grow with its size, as large as a client can send, one at a
 * time over one connection, beside GET /: its answer, its median time to the last byte over the
 * loopback, and the CPU time of the server's main thread per request (the event loop serves
 * nothing else meanwhile). The goal, judged on the CPU time: none over 20 ms.
 */
async function costlyRequests() {
  const seconds = Number(process.env.LOAD_REQUEST_SECONDS ?? 2);
  console.log(
    `\n6. Expensive requests, one at a time, each repeated for ${seconds} s (at most 200 times), ` +
      `beside GET / (goal: none over ${requestCpuGoalMs} ms of the server's CPU; load ${loadAverage()} ` +
      `on ${availableParallelism()} cores)`,
  );
  const app = await startServer({ cwd: root, env: baseEnv, quiet: true });
  try {
    const version = buildVersion(await (await fetch(`${app.url}/`)).text());
    const measured: Measured[] = [];
    for (const spec of expensiveRequests(version)) {
      measured.push(await measure(app.url, app.pid ?? 0, spec, { seconds }));
    }
    printTable(
      measured.map((row) => ({
        request: row.label,
        bytes: row.bytes,
        answer: row.status,
        requests: row.count,
        "median ms": row.medianMs.toFixed(1),
        "server CPU ms": row.cpuMs === null ? "-" : row.cpuMs.toFixed(2),
      })),
    );
    for (const row of measured) {
      if (row.cpuMs !== null && row.cpuMs > requestCpuGoalMs)
        failures.push(
          `expensive requests: ${row.label} costs ${row.cpuMs.toFixed(1)} ms of server CPU (goal ${requestCpuGoalMs} ms)`,
        );
      if (row.status.split(",").some((status) => Number(status) >= 500))
        failures.push(`expensive requests: ${row.label} answered ${row.status}`);
    }
    await checkHealth(app.url, "after the expensive requests");
  } finally {
    await app.stop();
  }
}

/** The machine's 1-minute load average, with one decimal. */
function loadAverage(): string {
  return (loadavg()[0] ?? 0).toFixed(1);
}

async function checkHealth(url: string, when: string) {
  await sleep(100);
  const response = await fetch(`${url}/healthz`);
  const body = (await response.json()) as { status?: string };
  if (!response.ok || body.status !== "ok") failures.push(`/healthz ${when}: ${response.status}`);
  else console.log(`/healthz ${when}: ok`);
}
