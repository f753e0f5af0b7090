// `npm run load-test`: load and fault tests of the built server, loopback only, bounded in time.
//  1. 50 concurrent clients for LOAD_SECONDS (60) on / and the policy pages: no errors, no
//     non-2xx, and a flat server RSS (growth after warm-up <= 50 MB).
//  2. 200 enquiries in one burst through each mail path: the outbox, EmailJS answering slowly
//     (2 s), EmailJS failing (500). Never a 5xx, nothing lost (each one sent, in the outbox,
//     or answered with the failure notice), and /healthz fine afterwards.
// The EmailJS stand-in listens on 127.0.0.3:443 (needs root).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { startFakeEmailJs } from "../tests/support/fake-emailjs";
import { startServer } from "../tests/support/server";
import { type EnquiryForm, fillEnquiry, parseEnquiryForm } from "./lib/enquiry-form";
import { ensureBuild, mb, printTable, root, rssBytes, sleep } from "./lib/server.js";

const seconds = Number(process.env.LOAD_SECONDS ?? 60);
const connections = 50;
const burst = Number(process.env.LOAD_ENQUIRIES ?? 200);
const maxGrowth = 50 * 1024 * 1024;
const pages = ["/", "/terms-conditions", "/privacy-policy", "/cookie-policy"];
const failureNotice = "Failed to send email. Please try again.";

const failures: string[] = [];
const dir = mkdtempSync(join(tmpdir(), "load-test-"));
const outbox = join(dir, "enquiries.jsonl");
const baseEnv = { ENQUIRY_OUTBOX: outbox, ENQUIRY_RATE_LIMIT: "0" };

ensureBuild();
try {
  await pageLoad();
  await enquiryBursts();
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
  kind: "sent" | "failure notice" | "server error" | "other";
  detail: string;
}

async function sendBurst(url: string, label: string): Promise<Outcome[] | null> {
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
  const started = Date.now();
  const outcomes = await Promise.all(
    (forms as EnquiryForm[]).map(async (form, index): Promise<Outcome> => {
      const marker = `${run}-${label.replace(/\W+/g, "")}-${index}`;
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
        return { marker, status: response.status, kind, detail: text.slice(0, 200) };
      } catch (error) {
        return { marker, status: 0, kind: "server error", detail: String(error) };
      }
    }),
  );
  const count = (kind: Outcome["kind"]) => outcomes.filter((outcome) => outcome.kind === kind).length;
  printTable([
    {
      burst: label,
      enquiries: outcomes.length,
      sent: count("sent"),
      "failure notice": count("failure notice"),
      "5xx/errors": count("server error"),
      other: count("other"),
      seconds: ((Date.now() - started) / 1000).toFixed(1),
    },
  ]);
  if (count("server error") > 0) {
    const first = outcomes.find((outcome) => outcome.kind === "server error");
    failures.push(
      `${label}: ${count("server error")} answered 5xx or failed (${first?.status} ${first?.detail})`,
    );
  }
  if (count("other") > 0) {
    const first = outcomes.find((outcome) => outcome.kind === "other");
    failures.push(
      `${label}: ${count("other")} answers neither redirect nor failure notice (${first?.status})`,
    );
  }
  return outcomes;
}

async function enquiryBursts() {
  console.log(`\n2. ${burst} enquiries in one burst per mail path`);
  const outboxApp = await startServer({ cwd: root, env: baseEnv, quiet: true });
  try {
    const outcomes = await sendBurst(outboxApp.url, "outbox");
    if (outcomes) {
      const stored = readOutbox();
      const lost = outcomes.filter((outcome) => outcome.kind === "sent" && !stored.includes(outcome.marker));
      if (lost.length > 0)
        failures.push(`outbox: ${lost.length} enquiries answered as sent but not in the outbox`);
      if (outcomes.some((outcome) => outcome.kind === "failure notice")) {
        failures.push("outbox: the embedded outbox should never fail under load");
      }
    }
    await checkHealth(outboxApp.url, "after the outbox burst");
  } finally {
    await outboxApp.stop();
  }

  const fake = await startFakeEmailJs("127.0.0.3");
  fake.respondWith({ kind: "ok", delayMs: 2_000 });
  const app = await startServer({
    cwd: root,
    quiet: true,
    env: {
      ...baseEnv,
      EMAILJS_SERVICE_ID: "service_load",
      EMAILJS_TEMPLATE_ID: "template_load",
      EMAILJS_PUBLIC_KEY: "public_load",
      EMAILJS_PRIVATE_KEY: "private_load",
      EMAILJS_ORIGIN: fake.host,
      NODE_EXTRA_CA_CERTS: fake.certificatePath,
    },
  });
  try {
    const rssBefore = rssBytes(app.pid) ?? 0;
    const slow = await sendBurst(app.url, "EmailJS slow (2 s)");
    if (slow) {
      const delivered = new Set(
        fake.requests.map(
          (request) =>
            (request.body as { template_params?: { message?: string } }).template_params?.message ?? "",
        ),
      );
      const lost = slow.filter(
        (outcome) => outcome.kind === "sent" && !delivered.has(`Load-test enquiry ${outcome.marker}`),
      );
      if (lost.length > 0)
        failures.push(`EmailJS slow: ${lost.length} answered as sent but never reached EmailJS`);
    }
    fake.respondWith({ kind: "status", status: 500, text: "Internal Server Error" });
    const failing = await sendBurst(app.url, "EmailJS failing (500)");
    if (failing?.some((outcome) => outcome.kind === "sent")) {
      failures.push("EmailJS failing: an enquiry was answered as sent while EmailJS refused every send");
    }
    console.log(`server RSS ${mb(rssBefore)} before the EmailJS bursts, ${mb(rssBytes(app.pid) ?? 0)} after`);
    await checkHealth(app.url, "after the EmailJS bursts");
  } finally {
    await app.stop();
    await fake.close();
  }
}

function readOutbox(): string {
  try {
    return readFileSync(outbox, "utf8");
  } catch {
    return "";
  }
}

async function checkHealth(url: string, when: string) {
  await sleep(100);
  const response = await fetch(`${url}/healthz`);
  const body = (await response.json()) as { status?: string };
  if (!response.ok || body.status !== "ok") failures.push(`/healthz ${when}: ${response.status}`);
  else console.log(`/healthz ${when}: ok`);
}
