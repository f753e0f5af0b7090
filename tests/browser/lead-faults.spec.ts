import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import {
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { SCAN_MS } from "../../app/leads/delivery/delivery.server";
import { ownRoot } from "../../scripts/lib/test-system";
import { validEnquiry } from "../support/enquiry-page";
import { emailJsAppEnv, type FakeEmailJs, startFakeEmailJs } from "../support/fake-emailjs";
import { watchPages as watchTargets } from "../support/fault-watch";
import { test as base, expect } from "../support/fixtures";
import {
  leadNamed,
  postEnquiry,
  readLeads,
  requestsFor,
  runLeadsCli,
  writeLeadFile,
} from "../support/lead-fixtures";
import { type MountNamespace, startMountNamespace } from "../support/mount-namespace";
import { expectThroughout, windowCovering } from "../support/quiet-window";
import { healthDetails, type RunningServer, startServer } from "../support/server-process";

// The lead pipeline broken from its surroundings, as an outside test broke it: a full or
// read-only disk, odd entries in leads/, a rolling deploy, twin containers, a deleted folder,
// a store full of delivered leads. Each test asserts on what reached the fake EmailJS: every
// enquiry answered 303 arrives exactly once, and pages keep answering.

// One fake on a loopback address of this file's own (enquiry-emailjs.spec.ts runs its own fake
// on FAKE_EMAILJS_HOST in parallel), and the tests one after the other.
const FAKE_HOST = (process.env.FAKE_EMAILJS_HOST ?? "127.0.0.2").replace(/^127\.0\./, "127.1.");
base.describe.configure({ mode: "default", timeout: 120_000 });

const test = base.extend<{ fake: FakeEmailJs; folder: string }, { fakeEmailJs: FakeEmailJs }>({
  fakeEmailJs: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern; empty means none
    async ({}, use) => {
      const fake = await startFakeEmailJs(FAKE_HOST);
      await use(fake);
      await fake.close();
    },
    { scope: "worker" },
  ],
  fake: async ({ fakeEmailJs }, use) => {
    fakeEmailJs.reset();
    await use(fakeEmailJs);
    fakeEmailJs.reset();
  },
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern; empty means none
  folder: async ({}, use) => {
    const folder = mkdtempSync(join(tmpdir(), "lead-faults-"));
    await use(folder);
    rmSync(folder, { recursive: true, force: true });
  },
});

/** The built server, started inside `namespace`, where it sees the tmpfs the test mounted. */
const serverIn = (namespace: MountNamespace) => namespace.command([process.execPath, "build/server.js"]);

/**
 * The home page rendered for each request (a query of its own) every 200 ms: each answers
 * 200. The slowest answer is a figure for the report (how fast is `npm run bench`'s concern).
 */
function watchPages(url: string) {
  const pages = watchTargets(url, (request) => `/?watch=${request}`);
  return {
    async stop() {
      const { requests, slowestMs, failures } = await pages.stop();
      expect(failures).toEqual([]);
      return { requests, slowestMs };
    },
  };
}

/** Posts `count` enquiries; returns the names answered 303. */
async function postMany(url: string, label: string, count: number): Promise<string[]> {
  const answered: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const values = validEnquiry({ name: `${label} ${index} ${Date.now().toString(36)}` });
    const response = await postEnquiry(url, values);
    expect(response.status).toBe(303);
    answered.push(values.name);
  }
  return answered;
}

/** A negative check's window: a send the deliverer would make again comes at its next rescan. */
const RESCAN_WINDOW_MS = windowCovering(SCAN_MS);

/**
 * Waits until every name reached the fake, then asserts each arrived exactly once throughout a
 * full rescan. Returns the sends per lead.
 */
async function expectDeliveredOnce(fake: FakeEmailJs, names: string[], timeout = 60_000) {
  await expect
    .poll(() => names.filter((name) => requestsFor(fake, name).length === 0), { timeout, intervals: [200] })
    .toEqual([]);
  const counts = () => names.map((name) => requestsFor(fake, name).length);
  await expectThroughout(RESCAN_WINDOW_MS, () => expect(counts()).toEqual(names.map(() => 1)));
  return Math.max(...counts());
}

function figures(testInfo: { annotations: { type: string; description?: string }[] }, line: string) {
  testInfo.annotations.push({ type: "figures", description: line });
  console.log(`lead faults: ${line}`);
}

/** Fills the file system holding `path` until ENOSPC. */
function fillDisk(path: string) {
  const fd = openSync(path, "w");
  const chunk = Buffer.alloc(4096, 7);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
  } finally {
    closeSync(fd);
  }
}

/** Each operator line of the store is said once, not at every tick. */
function expectEachStoreLineOnce(output: string) {
  const lines = output.split("\n").filter((line) => line.startsWith("lead store:"));
  const repeated = lines.filter((line, index) => lines.indexOf(line) !== index);
  expect(repeated).toEqual([]);
}

function leadStates(storeDir: string) {
  return readLeads(storeDir).map((lead) => lead.state);
}

for (const fault of ["disk full", "read-only"] as const) {
  test(`${fault}: each lead EmailJS accepted is sent once, the others still move, enquiries are answered, and the outcomes are written once the disk takes writes`, async ({
    fake,
    folder,
  }, testInfo) => {
    // The server writes `storeDir` on a tmpfs of the namespace; this process reads it as `store`.
    const storeDir = join(folder, "data");
    mkdirSync(storeDir);
    const namespace = await startMountNamespace();
    const store = namespace.path(storeDir);
    let server: RunningServer | undefined;
    try {
      const size = fault === "disk full" ? "size=64k" : "size=1m";
      namespace.run("mount", ["-t", "tmpfs", "-o", size, "tmpfs", storeDir]);
      server = await startServer({ env: emailJsAppEnv(fake, storeDir), command: serverIn(namespace) });
      // Five leads wait in the store while EmailJS is down…
      fake.respondWith({ kind: "status", status: 503, text: "Service Unavailable" });
      const stored = await postMany(server.url, `${fault} stored`, 5);
      await expect.poll(() => stored.every((name) => requestsFor(fake, name).length >= 1)).toBe(true);
      // …then the disk breaks, and EmailJS comes back.
      const pages = watchPages(server.url);
      if (fault === "disk full") fillDisk(join(store, "filler"));
      else namespace.run("mount", ["-o", "remount,bind,ro", storeDir]);
      const brokeAt = Date.now();
      fake.reset();
      // Enquiries while the disk is broken cannot be kept: they go straight to EmailJS.
      const direct = await postMany(server.url, `${fault} direct`, 2);
      const sends = await expectDeliveredOnce(fake, [...stored, ...direct], 45_000);
      expect(leadStates(store)).toEqual(stored.map(() => "pending"));
      const health = await healthDetails(server.url);
      expect(health.store).toBe("unusable");
      expect(health.leads.pending).toBe(0);
      const output = server.output();
      expect(output.split("cannot write delivery outcomes").length - 1).toBe(1);
      expect(output).toContain(`ENQUIRY_STORE_DIR=${storeDir} is unusable`);

      // The disk takes writes again: every outcome is written, nothing is sent again.
      const fixedAt = Date.now();
      if (fault === "disk full") rmSync(join(store, "filler"));
      else namespace.run("mount", ["-o", "remount,bind,rw", storeDir]);
      await expect
        .poll(() => leadStates(store), { timeout: 20_000, intervals: [100] })
        .toEqual(stored.map(() => "sent"));
      const recoveredMs = Date.now() - fixedAt;
      await expect.poll(async () => (await healthDetails(server?.url ?? "")).store).toBe("ok");
      const page = await pages.stop();
      const after = await postMany(server.url, `${fault} after`, 1);
      await expectDeliveredOnce(fake, [...stored, ...direct, ...after]);
      expect(server.output()).toContain("delivery outcomes are written to");
      expectEachStoreLineOnce(server.output());
      figures(
        testInfo,
        `${fault}: ${stored.length} stored + ${direct.length} sent directly, at most ${sends} send per lead over ${Math.round((fixedAt - brokeAt) / 1000)} s of fault; outcomes written ${recoveredMs} ms after the fix; slowest page ${page.slowestMs} ms of ${page.requests}`,
      );
    } finally {
      await server?.stop();
      await namespace.close();
    }
  });
}

test("a full disk while EmailJS fails: each lead answered 303 is delivered within 60 s of EmailJS's return, its failed attempts kept in memory tried again when due", async ({
  fake,
  folder,
}, testInfo) => {
  // As an outside test found it: a 256 KiB volume, 192 KiB of it another file's, EmailJS
  // answering 500 until enquiries fill the rest and the disk refuses one.
  const storeDir = join(folder, "data");
  mkdirSync(storeDir);
  const namespace = await startMountNamespace();
  const store = namespace.path(storeDir);
  let server: RunningServer | undefined;
  try {
    namespace.run("mount", ["-t", "tmpfs", "-o", "size=256k", "tmpfs", storeDir]);
    writeFileSync(join(store, "other-file"), Buffer.alloc(192 * 1024, 7));
    server = await startServer({ env: emailJsAppEnv(fake, storeDir), command: serverIn(namespace) });
    const url = server.url;
    fake.respondWith({ kind: "status", status: 500, text: "Internal Server Error" });
    const answered: string[] = [];
    for (let index = 0; index < 60; index += 1) {
      const values = validEnquiry({ name: `Full disk ${index} ${Date.now().toString(36)}` });
      const response = await postEnquiry(url, values);
      if (response.status !== 303) break;
      answered.push(values.name);
    }
    // The disk refused one (nothing kept, EmailJS failing: the failure notice) before the 60th.
    expect(answered.length).toBeGreaterThan(5);
    expect(answered.length).toBeLessThan(60);
    // A rewrite in flight when it refused may have freed a page since: the last bytes are taken
    // too, so no outcome is written from here on.
    fillDisk(join(store, "filler"));
    // Every lead holds a failed attempt its file does not show (the fake got more attempts than
    // the file counts): one whose outcome could not be written. Nothing is written from here on.
    const unwrittenAttempt = (name: string) =>
      requestsFor(fake, name).length > (leadNamed(store, name)?.attempts ?? 0);
    await expect
      .poll(() => answered.filter((name) => !unwrittenAttempt(name)), { timeout: 45_000 })
      .toEqual([]);
    expect(server.output()).toContain("cannot write delivery outcomes");
    fake.respondWith({ kind: "ok" });
    const returnedAt = Date.now();
    const accepted = (name: string) => requestsFor(fake, name).filter((request) => request.status === 200);
    await expect
      .poll(() => answered.filter((name) => accepted(name).length === 0), {
        timeout: 60_000,
        intervals: [200],
      })
      .toEqual([]);
    const deliveredMs = Date.now() - returnedAt;
    // Accepted once each, though no outcome could be written.
    await expectThroughout(RESCAN_WINDOW_MS, () =>
      expect(answered.map((name) => accepted(name).length)).toEqual(answered.map(() => 1)),
    );
    const attempts = Math.max(...answered.map((name) => requestsFor(fake, name).length));
    // Each lead's outcome waits in memory, and /healthz counts them.
    expect((await healthDetails(url)).unwrittenOutcomes).toBe(answered.length);

    // The disk takes writes again: the outcomes waiting in memory are written, none is left.
    rmSync(join(store, "filler"));
    rmSync(join(store, "other-file"));
    await expect
      .poll(() => leadStates(store), { timeout: 20_000, intervals: [100] })
      .toEqual(answered.map(() => "sent"));
    await expect.poll(async () => (await healthDetails(url)).unwrittenOutcomes).toBe(0);
    expect(answered.map((name) => accepted(name).length)).toEqual(answered.map(() => 1));
    figures(
      testInfo,
      `full disk: ${answered.length} enquiries answered 303 before the disk refused one; all delivered ${deliveredMs} ms after EmailJS's return, once each (at most ${attempts} attempts per lead)`,
    );
  } finally {
    await server?.stop();
    await namespace.close();
  }
});

test("odd entries named like leads (directory, symlink loop, FIFO, .tmp- directory), a copied lead file and a crafted id: readable leads are delivered once, pages keep answering", async ({
  fake,
  folder,
}, testInfo) => {
  const storeDir = join(folder, "data");
  const leads = join(storeDir, "leads");
  const waiting = writeLeadFile(storeDir, {
    enquiry: { ...validEnquiry({ name: `Waiting ${Date.now()}` }) },
  });
  const odd = (n: number) => join(leads, `179500000000${n}-0b7c3f5e-1d2a-4c1b-9d8e-2f3a4b5c6d7${n}.json`);
  mkdirSync(odd(1));
  symlinkSync(basename(odd(2)), odd(2));
  execFileSync("mkfifo", [odd(3)]);
  mkdirSync(join(leads, ".tmp-0b7c3f5e-1d2a"));
  // A crafted id that would reach outside the store if it were ever used as a path.
  const outside = join(folder, "outside.json");
  const crafted = writeLeadFile(storeDir, { state: "failed", enquiry: validEnquiry({ name: "Crafted" }) });
  const craftedName = join(leads, "1795000000009-0b7c3f5e-1d2a-4c1b-9d8e-2f3a4b5c6d79.json");
  writeFileSync(craftedName, JSON.stringify({ ...crafted.lead, id: "../../outside" }));
  rmSync(crafted.path);

  const server = await startServer({ env: emailJsAppEnv(fake, storeDir) });
  const pages = watchPages(server.url);
  try {
    // The public answer says nothing about the store.
    expect(await (await fetch(`${server.url}/healthz`)).text()).toBe('{"status":"ok"}');
    // A lead copied by hand under another name, once delivered…
    const [delivered = ""] = await postMany(server.url, "Copied after sending", 1);
    const fileOf = (name: string) => {
      const lead = readLeads(storeDir).find((candidate) => candidate.enquiry.name === name);
      return lead ? `${Date.parse(lead.receivedAt)}-${lead.id}.json` : "";
    };
    await expect
      .poll(() => readLeads(storeDir).find((lead) => lead.enquiry.name === delivered)?.state)
      .toBe("sent");
    copyFileSync(join(leads, fileOf(delivered)), join(leads, `1795000000100-${randomUUID()}.json`));
    // …and one copied while it still waits for EmailJS, under its own id.
    fake.respondWith({ kind: "status", status: 503, text: "Service Unavailable" });
    const [pending = ""] = await postMany(server.url, "Copied while pending", 1);
    await expect.poll(() => requestsFor(fake, pending).length).toBe(1);
    const pendingLead = readLeads(storeDir).find((lead) => lead.enquiry.name === pending);
    copyFileSync(join(leads, fileOf(pending)), join(leads, `1795000000200-${pendingLead?.id}.json`));
    fake.respondWith({ kind: "ok" });
    // The pending lead's first send was refused (503): it is sent once more, and once only.
    await expect.poll(() => requestsFor(fake, pending).length, { timeout: 20_000 }).toBe(2);
    const names = [waiting.lead.enquiry.name, delivered, pending];
    // A copy, sent, would go at a rescan.
    await expectThroughout(RESCAN_WINDOW_MS, () =>
      expect(names.map((name) => requestsFor(fake, name).length)).toEqual([1, 1, 2]),
    );
    const states = readLeads(storeDir);
    expect(names.map((name) => states.find((lead) => lead.enquiry.name === name)?.state)).toEqual([
      "sent",
      "sent",
      "sent",
    ]);

    // The operator's retry never writes outside the store, and never the crafted file.
    const cli = await runLeadsCli(storeDir, ["retry", "--failed"]);
    expect(cli).toContain("0 leads back in the queue");
    expect(existsSync(outside)).toBe(false);
    const table = await runLeadsCli(storeDir);
    expect(table).not.toContain("Crafted");

    const page = await pages.stop();
    const output = server.output();
    // One line per bad entry, naming it, however many scans passed.
    for (const [entry, says] of [
      [odd(1), "is a directory, not a lead file"],
      [odd(2), "is a symbolic link"],
      [odd(3), "is a FIFO"],
      [join(leads, ".tmp-0b7c3f5e-1d2a"), "is a directory, not a write of the store"],
      [craftedName, "is not a complete lead record"],
      ["1795000000100-", "skipped and never delivered"],
      ["1795000000200-", "skipped and never delivered"],
    ] as const) {
      const lines = output.split("\n").filter((line) => line.includes(entry));
      expect(lines, entry).toHaveLength(1);
      expect(lines[0]).toContain(says);
    }
    expect(output).not.toContain("another server process delivers");
    figures(
      testInfo,
      `odd entries: ${names.length} readable leads, each accepted once (sends per lead: 1, 1, 1 + one refused 503); 7 bad entries, one log line each; slowest page ${page.slowestMs} ms of ${page.requests}`,
    );
  } finally {
    await server.stop();
  }
});

test("a rolling deploy: SIGTERM during a slow send keeps the lock until the outcome is written; the next process never sends it again", async ({
  fake,
  folder,
}, testInfo) => {
  const storeDir = join(folder, "data");
  const env = { ...emailJsAppEnv(fake, storeDir), SHUTDOWN_DEADLINE: "10" };
  const old = await startServer({ env });
  await expect.poll(() => existsSync(join(storeDir, "leads", "deliverer.lock"))).toBe(true);
  const next = await startServer({ env });
  const pages = watchPages(next.url);
  try {
    fake.respondWith({ kind: "ok", delayMs: 3_000 });
    const [name] = await postMany(old.url, "Rolling deploy", 1);
    await expect.poll(() => requestsFor(fake, name ?? "").length).toBe(1);
    const exited = once(old.process, "exit");
    const signalledAt = Date.now();
    old.process.kill("SIGTERM");
    const [code] = (await exited) as [number | null];
    const exitMs = Date.now() - signalledAt;
    expect(code).toBe(0);
    // It waited for EmailJS's answer (3 s after the send) and wrote it before letting go, within
    // its deadline: the drain finished, the deadline did not end it.
    expect(readLeads(storeDir).find((lead) => lead.enquiry.name === name)?.state).toBe("sent");
    expect(old.output()).not.toContain("shutdown: still busy");
    fake.respondWith({ kind: "ok" });
    // The next process takes over at its next heartbeat and delivers new enquiries.
    const later = await postMany(next.url, "After the deploy", 2);
    const sends = await expectDeliveredOnce(fake, [name ?? "", ...later], 30_000);
    await expect.poll(() => next.output()).toContain("another server process delivers");
    const page = await pages.stop();
    figures(
      testInfo,
      `rolling deploy: at most ${sends} send per lead; the old process exited ${exitMs} ms after SIGTERM, once the 3 s send was answered and written; slowest page of the next process ${page.slowestMs} ms of ${page.requests}`,
    );
  } finally {
    await old.stop();
    await next.stop();
  }
});

test("twin containers: two servers that are both PID 1 on one host name never both deliver", async ({
  fake,
  folder,
}, testInfo) => {
  const storeDir = join(folder, "data");
  const command = [
    "unshare",
    ...ownRoot(process.getuid?.() ?? 0),
    "--pid",
    "--fork",
    "--kill-child=SIGTERM",
    "--mount-proc",
    process.execPath,
    "build/server.js",
  ];
  const twins = [
    await startServer({ env: emailJsAppEnv(fake, storeDir), command }),
    await startServer({ env: emailJsAppEnv(fake, storeDir), command }),
  ];
  try {
    // Each server really is PID 1 in its own namespace.
    for (const twin of twins) {
      const child = readFileSync(`/proc/${twin.pid}/task/${twin.pid}/children`, "utf8").trim();
      expect(readFileSync(`/proc/${child}/status`, "utf8")).toMatch(/^NSpid:\s+\d+\s+1$/m);
    }
    fake.respondWith({ kind: "ok", delayMs: 20 });
    const pages = watchPages(twins[1]?.url ?? "");
    const names: string[] = [];
    for (let round = 0; round < 30; round += 1) {
      names.push(...(await postMany(twins[round % 2]?.url ?? "", `Twin ${round % 2}`, 2)));
    }
    const sends = await expectDeliveredOnce(fake, names);
    const waiting = twins.filter((twin) => twin.output().includes("another server process delivers"));
    expect(waiting).toHaveLength(1);
    const page = await pages.stop();
    figures(
      testInfo,
      `twin PID-1 containers: ${names.length} enquiries over two servers, at most ${sends} send per lead; slowest page ${page.slowestMs} ms of ${page.requests}`,
    );
  } finally {
    for (const twin of twins) await twin.stop();
  }
});

test("the store folder deleted while the server runs is made again at the next write; later enquiries are kept and delivered once", async ({
  fake,
  folder,
}, testInfo) => {
  const storeDir = join(folder, "data");
  const server = await startServer({ env: emailJsAppEnv(fake, storeDir) });
  const pages = watchPages(server.url);
  try {
    const first = await postMany(server.url, "Before deletion", 2);
    await expect.poll(() => leadStates(storeDir)).toEqual(["sent", "sent"]);
    rmSync(join(storeDir, "leads"), { recursive: true });
    await expect.poll(() => server.output()).toContain("is missing (deleted while the server ran?)");
    const later = await postMany(server.url, "After deletion", 3);
    expect(server.output()).toContain("was missing (deleted while the server ran?); made it again");
    const sends = await expectDeliveredOnce(fake, [...first, ...later]);
    await expect.poll(() => leadStates(storeDir)).toEqual(["sent", "sent", "sent"]);
    // The deliverer's lock came back with the folder.
    await expect.poll(() => existsSync(join(storeDir, "leads", "deliverer.lock"))).toBe(true);
    expect((await healthDetails(server.url)).store).toBe("ok");
    const page = await pages.stop();
    figures(
      testInfo,
      `deleted folder: at most ${sends} send per lead; slowest page ${page.slowestMs} ms of ${page.requests}`,
    );
  } finally {
    await server.stop();
  }
});

test("10 000 delivered leads, under a 1 024 file-descriptor limit, plus a new one: it is kept, delivered once, and the oldest delivered lead makes room", async ({
  fake,
  folder,
}, testInfo) => {
  const storeDir = join(folder, "data");
  const start = Date.now() - 10 * 24 * 60 * 60_000;
  for (let index = 0; index < 10_000; index += 1) {
    writeLeadFile(storeDir, {
      receivedAt: new Date(start + index * 1000).toISOString(),
      state: "sent",
      attempts: 1,
      enquiry: validEnquiry({ name: `Delivered ${index}` }),
    });
  }
  const command = ["prlimit", "--nofile=1024:1024", process.execPath, "build/server.js"];
  const startedAt = Date.now();
  const server = await startServer({ env: emailJsAppEnv(fake, storeDir), command });
  const pages = watchPages(server.url);
  try {
    // The first scan has read them all once the deliverer holds the lock.
    await expect
      .poll(() => existsSync(join(storeDir, "leads", "deliverer.lock")), { timeout: 30_000 })
      .toBe(true);
    const scannedMs = Date.now() - startedAt;
    await expect.poll(async () => (await healthDetails(server.url)).store).toBe("ok");
    const names = await postMany(server.url, "The 10 001st", 1);
    const sends = await expectDeliveredOnce(fake, names);
    const files = readdirSync(join(storeDir, "leads")).filter((name) => name.endsWith(".json"));
    expect(files).toHaveLength(10_000);
    expect(readLeads(storeDir).some((lead) => lead.enquiry.name === "Delivered 0")).toBe(false);
    expect(server.output()).toContain("removed the 1 oldest delivered lead");
    expect(server.output()).not.toMatch(/EMFILE|too many open files/);
    const page = await pages.stop();
    figures(
      testInfo,
      `10 000 delivered + 1: the new lead sent ${sends} time; lock taken ${scannedMs} ms after start; slowest page ${page.slowestMs} ms of ${page.requests}`,
    );
  } finally {
    await server.stop();
  }
});

test("npm run leads shows the site's words for EmailJS's reply (an earlier release's stored text with its invisible characters as escapes), tells the store's health, and queues an inbox lead for the server to route", async ({
  fake,
  folder,
}) => {
  const storeDir = join(folder, "data");
  const server = await startServer({ env: emailJsAppEnv(fake, storeDir) });
  try {
    fake.respondWith({ kind: "status", status: 400, text: "bad\u001b[2J\u001b[H\u202Etemplate" });
    const [name] = await postMany(server.url, "Forged reply", 1);
    await expect
      .poll(() => readLeads(storeDir).find((lead) => lead.enquiry.name === name)?.state)
      .toBe("failed");
    const table = await runLeadsCli(storeDir);
    expect(table).toContain("EmailJS answered 400: the request was refused");
    expect(table).not.toContain("template");
    expect(table).not.toContain("\u001b");
    expect(table).not.toContain("\u202e");
    const json = await runLeadsCli(storeDir, ["--json"]);
    expect(json).not.toContain("template");
    expect(JSON.parse(json.trim()).lastError).toBe("EmailJS answered 400: the request was refused");
    const health = await runLeadsCli(storeDir, ["--health"]);
    expect(health).toMatch(/^store: ok in /m);
    expect(health).toMatch(/^leads: 0 pending, 1 failed, 0 inbox, 0 sent, 0 in the quarantine$/m);
    expect(health).toMatch(/^delivery: held by process [0-9a-f-]{36} since \S+, heartbeat \d+\.\d s ago$/m);
  } finally {
    await server.stop();
  }
  // A lead an earlier release stored kept EmailJS's own text: the table escapes what it cannot show.
  const older = join(folder, "older");
  writeLeadFile(older, {
    state: "failed",
    enquiry: validEnquiry(),
    lastError: "EmailJS answered 400: bad\u001b[2J\u001b[H\u202Etemplate",
  });
  const olderTable = await runLeadsCli(older);
  expect(olderTable).toContain("EmailJS answered 400: bad\\u001B[2J\\u001B[H\\u202Etemplate");
  expect(olderTable).not.toContain("\u001b");
  expect(olderTable).not.toContain("\u202e");
  // The shell's own EmailJS variables decide nothing: the running server routes the lead.
  const inbox = writeLeadFile(join(folder, "inbox"), { state: "inbox", enquiry: validEnquiry() });
  expect(await runLeadsCli(join(folder, "inbox"), ["retry", inbox.lead.id])).toContain("back in the queue");
  expect(readLeads(join(folder, "inbox")).find((lead) => lead.id === inbox.lead.id)?.state).toBe("pending");
});
