import { writeFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { enquiryStream, figures, postOne, sendsPerName, watchPages } from "../support/fault-watch";
import { leadsCli, requestsFor } from "../support/lead-fixtures";
import { fakeHostFor, replicaTest } from "../support/postgres-fixtures";
import { type ReplicaSet, startReplicas } from "../support/replicas";
import { databaseStatus, healthDetails } from "../support/server-process";

// PostgreSQL broken under running replicas of the built server: stopped, a deliverer killed
// or cut off, a table locked. Every enquiry answered 303 is kept (in the data folder's spool
// while the database cannot take it) and reaches the fake EmailJS exactly once (one more at
// most per crash), and pages keep answering. Each test prints its figures. All the faults at
// once, on three replicas and with the webhook: lead-spool.spec.ts.

const test = replicaTest(fakeHostFor(3));
const { expect } = test;
test.describe.configure({ mode: "default", timeout: 180_000 });

/** The leads `npm run leads -- --json` reads from the database, by name. */
async function leadStates(databaseUrl: string, folder: string): Promise<Map<string, string[]>> {
  const { stdout } = await leadsCli(join(folder, "operator"), ["--json"], { DATABASE_URL: databaseUrl });
  const states = new Map<string, string[]>();
  for (const line of stdout.split("\n").filter((text) => text.trim() !== "")) {
    const lead = JSON.parse(line) as { name: string; state: string };
    states.set(lead.name, [...(states.get(lead.name) ?? []), lead.state]);
  }
  return states;
}

/** Waits until no lead in the database is waiting for delivery. */
async function expectNothingPending(databaseUrl: string, folder: string, timeout = 60_000) {
  await expect
    .poll(
      async () => [...(await leadStates(databaseUrl, folder)).values()].flat().filter((s) => s === "pending"),
      {
        timeout,
        intervals: [500],
      },
    )
    .toEqual([]);
}

/** Lines of a server's log that start with `prefix` and contain `text`. */
function logLines(output: string, prefix: string, text: RegExp): string[] {
  return output.split("\n").filter((line) => line.startsWith(prefix) && text.test(line));
}

/** A page from memory and a full render are served, whole, now. */
async function expectPagesServed(url: string) {
  for (const path of ["/", "/?page=2"]) {
    const page = await fetch(`${url}${path}`);
    expect(page.status, path).toBe(200);
    expect(await page.text(), path).toContain("</html>");
  }
}

test("PostgreSQL stopped in the middle of a stream of enquiries: each answered 303 and kept (in the spool while it is down), each delivered once, pages served while it is down", async ({
  fake,
  folder,
  databaseUrl,
  postgres,
  serverNode,
}, testInfo) => {
  const set = await startReplicas({ count: 1, databaseUrl, fake, folder, node: serverNode });
  const server = set.replicas[0]?.server;
  if (!server) throw new Error("no replica");
  try {
    // EmailJS fails at first: what the store keeps waits for it.
    fake.respondWith({ kind: "status", status: 500, text: "Internal Server Error" });
    const pages = watchPages(server.url);
    const stream = enquiryStream(server.url, "Outage");
    const count = (outcomes: typeof stream.outcomes, kind: string) =>
      outcomes.filter((outcome) => outcome.kind === kind).length;
    await expect.poll(() => count(stream.outcomes, "sent"), { timeout: 30_000 }).toBeGreaterThanOrEqual(5);

    const downAt = Date.now();
    await postgres.stop();
    // Without the database, and with EmailJS failing, enquiries are still kept: in the spool of
    // the data folder, which /healthz counts.
    await expect
      .poll(() => count(stream.since(downAt), "sent"), { timeout: 30_000 })
      .toBeGreaterThanOrEqual(3);
    await expect.poll(async () => (await healthDetails(server.url)).leads.spooled).toBeGreaterThanOrEqual(3);
    // EmailJS back while the database is still down: the spool keeps what comes. From here on
    // the fake records only what it accepted.
    const emailJsBackAt = Date.now();
    fake.reset();
    await expect
      .poll(() => count(stream.since(emailJsBackAt), "sent"), { timeout: 30_000 })
      .toBeGreaterThanOrEqual(3);
    // The outage lasts until all of the above was seen, the operator is told, and pages are
    // served while it lasts.
    await expect.poll(() => logLines(server.output(), "database:", /unreachable/)).toHaveLength(1);
    await expect.poll(async () => databaseStatus(await healthDetails(server.url))).toMatch(/^unreachable: /);
    await expectPagesServed(server.url);
    const spooled = (await healthDetails(server.url)).leads.spooled;
    const upAt = Date.now();
    await postgres.start();
    await expect.poll(() => count(stream.since(upAt), "sent"), { timeout: 30_000 }).toBeGreaterThanOrEqual(5);
    const outcomes = await stream.stop();

    expect(
      outcomes.filter((outcome) => outcome.kind !== "sent").map((o) => `${o.status} ${o.kind} ${o.name}`),
    ).toEqual([]);
    const answered = outcomes.map((outcome) => outcome.name);
    await expect
      .poll(() => answered.filter((name) => requestsFor(fake, name).length === 0), {
        timeout: 90_000,
        intervals: [250],
      })
      .toEqual([]);
    const deliveredAt = Date.now();
    await expectNothingPending(databaseUrl, folder);
    await expect.poll(async () => (await healthDetails(server.url)).leads.spooled).toBe(0);
    const sends = sendsPerName(fake, answered);
    expect(sends).toEqual(answered.map(() => 1));
    // Every lead answered 303 is in the store, once.
    const stored = await leadStates(databaseUrl, folder);
    expect(answered.filter((name) => stored.get(name)?.length !== 1)).toEqual([]);

    const watched = await pages.stop();
    const output = server.output();
    expect(logLines(output, "database:", /unreachable/)).toHaveLength(1);
    expect(logLines(output, "database:", /reachable again/)).toHaveLength(1);
    expect(
      logLines(
        output,
        "lead spool:",
        /^lead spool: moved \d+ leads from .* into the database; none waits there now$/,
      ),
    ).not.toEqual([]);
    figures(
      testInfo,
      "database outage",
      `${outcomes.length} enquiries, all answered 303 and kept (${spooled} in the spool when PostgreSQL came back); sends per lead max ${Math.max(...sends)}; every 303 delivered ${((deliveredAt - upAt) / 1000).toFixed(1)} s after PostgreSQL was back; ` +
        `slowest page ${watched.slowestMs} ms of ${watched.requests} (${((watched.slowestAt - downAt) / 1000).toFixed(1)} s after the stop, PostgreSQL back at ${((upAt - downAt) / 1000).toFixed(1)} s); ` +
        `slowest enquiry answer ${Math.max(...outcomes.map((o) => o.ms))} ms`,
    );
    expect(watched.failures).toEqual([]);
  } finally {
    await postgres.start();
    await set.stop();
    writeFileSync(testInfo.outputPath("server.log"), server.output());
  }
});

/** Two replicas; one enquiry whose send to EmailJS hangs; resolves with the replica sending it. */
async function hangingSend(
  set: ReplicaSet,
  fake: Parameters<typeof startReplicas>[0]["fake"],
  label: string,
) {
  fake.respondWith({ kind: "hang" });
  const url = set.replicas[0]?.server.url ?? "";
  const outcome = await postOne(url, `${label} ${Date.now().toString(36)}`);
  expect(outcome.status).toBe(303);
  await expect.poll(() => requestsFor(fake, outcome.name).length, { timeout: 30_000 }).toBe(1);
  const first = requestsFor(fake, outcome.name)[0];
  if (!first) throw new Error("no send");
  const sender = set.replicas.find((replica) => replica.name === set.sentBy(first));
  if (!sender) throw new Error(`unknown sender ${set.sentBy(first)}`);
  return { name: outcome.name, sender };
}

test("the deliverer's replica SIGKILLed during a send: another replica delivers the lead, at most once more", async ({
  fake,
  folder,
  databaseUrl,
  serverNode,
}, testInfo) => {
  const set = await startReplicas({ count: 2, databaseUrl, fake, folder, node: serverNode });
  try {
    const { name, sender } = await hangingSend(set, fake, "Killed deliverer");
    sender.server.process.kill("SIGKILL");
    const killedAt = Date.now();
    const hungSends = requestsFor(fake, name).length;
    fake.reset();
    await expect.poll(() => requestsFor(fake, name).length, { timeout: 90_000, intervals: [250] }).toBe(1);
    const recovered = ((Date.now() - killedAt) / 1000).toFixed(1);
    await expectNothingPending(databaseUrl, folder);
    const [delivery] = requestsFor(fake, name);
    expect(delivery && set.sentBy(delivery)).not.toBe(sender.name);
    expect(requestsFor(fake, name)).toHaveLength(1);
    figures(
      testInfo,
      "deliverer killed",
      `lead sent ${hungSends + 1} times in all (1 cut short by the kill, 1 delivered by another replica); delivered ${recovered} s after the kill`,
    );
  } finally {
    await set.stop();
  }
});

test("the deliverer's connection killed with pg_terminate_backend during a send: the lead is delivered, at most once more", async ({
  fake,
  folder,
  databaseUrl,
  postgres,
  serverNode,
}, testInfo) => {
  const set = await startReplicas({ count: 2, databaseUrl, fake, folder, node: serverNode });
  try {
    const { name, sender } = await hangingSend(set, fake, "Cut deliverer");
    const cut = await postgres.sql(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1",
      [sender.name],
    );
    expect(cut.length).toBeGreaterThan(0);
    const cutAt = Date.now();
    const before = requestsFor(fake, name).length;
    fake.reset();
    await expect.poll(() => requestsFor(fake, name).length, { timeout: 90_000, intervals: [250] }).toBe(1);
    const recovered = ((Date.now() - cutAt) / 1000).toFixed(1);
    await expectNothingPending(databaseUrl, folder);
    const [delivery] = requestsFor(fake, name);
    expect(requestsFor(fake, name)).toHaveLength(1);
    figures(
      testInfo,
      "deliverer cut off",
      `${cut.length} connections of ${sender.name} terminated; lead sent ${before + 1} times in all, delivered by ${delivery ? set.sentBy(delivery) : "?"} ${recovered} s after the cut`,
    );
  } finally {
    await set.stop();
  }
});

test("the leads table locked: pages are served and enquiries answered 303 before it is unlocked, each delivered once", async ({
  fake,
  folder,
  databaseUrl,
  serverNode,
}, testInfo) => {
  const set = await startReplicas({ count: 1, databaseUrl, fake, folder, node: serverNode });
  const server = set.replicas[0]?.server;
  if (!server) throw new Error("no replica");
  const locker = new pg.Client({ connectionString: databaseUrl });
  await locker.connect();
  try {
    await locker.query("BEGIN");
    await locker.query("LOCK TABLE leads IN ACCESS EXCLUSIVE MODE");
    const lockedAt = Date.now();
    const pages = watchPages(server.url);
    // The lock is held until every enquiry has its answer and pages were served: an enquiry
    // that waited for the table would hold it for good (until the test's time limit).
    const outcomes = await Promise.all(
      [1, 2, 3].map((index) => postOne(server.url, `Locked ${index} ${Date.now().toString(36)}`)),
    );
    await expectPagesServed(server.url);
    const lockedMs = Date.now() - lockedAt;
    await locker.query("COMMIT");
    const watched = await pages.stop();

    expect(outcomes.map((outcome) => outcome.status)).toEqual([303, 303, 303]);
    // The store gave up on the table at PostgreSQL's lock timeout, and said so.
    expect(
      logLines(server.output(), "lead store:", /unusable \(canceling statement due to lock timeout\)/),
    ).not.toEqual([]);
    const names = outcomes.map((outcome) => outcome.name);
    await expect
      .poll(() => names.filter((name) => requestsFor(fake, name).length === 0), { timeout: 60_000 })
      .toEqual([]);
    await expectNothingPending(databaseUrl, folder);
    expect(sendsPerName(fake, names)).toEqual(names.map(() => 1));
    figures(
      testInfo,
      "leads table locked",
      `table locked ${(lockedMs / 1000).toFixed(1)} s; enquiries answered 303 in ${outcomes.map((outcome) => outcome.ms).join(", ")} ms; slowest page ${watched.slowestMs} ms of ${watched.requests}; sends per lead 1`,
    );
    expect(watched.failures).toEqual([]);
  } finally {
    await locker.end();
    await set.stop();
    writeFileSync(testInfo.outputPath("server.log"), server.output());
  }
});
