import { once } from "node:events";
import { writeFileSync } from "node:fs";
import pg from "pg";
import { enquiryStream, figures } from "../support/fault-watch";
import { requestsFor } from "../support/lead-fixtures";
import { fakeHostFor, replicaTest } from "../support/postgres-fixtures";
import { leadsInDatabase, type Replica, startReplica, startReplicas } from "../support/replicas";
import { healthDetails, type RunningServer } from "../support/server-process";
import { type ReceivedRequest, startWebhookReceiver } from "../support/webhook-receiver";

// Finding 2 of issue 38, repeated: three replicas of the built server on one PostgreSQL, with
// EmailJS and the lead webhook, take an enquiry every 250 ms through a replica SIGKILLed (and
// restarted), its connections cut by pg_terminate_backend (idle ones, then one in a
// transaction), the leads table locked for about 10 s and the database stopped for about 5 s.
// Every enquiry answered 303 ends up in the store and reaches both destinations, once (one more
// at most per destination for the crash). The test prints its counts (docs/decisions/030-lead-spool.md).

const test = replicaTest(fakeHostFor(41));
const { expect } = test;
test.describe.configure({ mode: "default", timeout: 300_000 });

/** The receiver's and the servers' secret: `whsec_` and a 32-byte key. */
const SECRET = `whsec_${Buffer.from("lead-spool-spec-secret-32-bytes!").toString("base64")}`;

/**
 * Enquiries answered during a fault, so that it lasts about 10 s and 5 s: one starts every 250 ms
 * and, while the database does not take them, each is answered about 2 s later.
 */
const ANSWERED_DURING_LOCK = 32;
const ANSWERED_DURING_STOP = 16;
/** Enquiries answered 303 between two faults: the site took enquiries again. */
const BETWEEN_FAULTS = 8;

/** The `lead.received` events the receiver took (answered 2xx), by the lead's name. */
function webhookDeliveries(requests: readonly ReceivedRequest[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const request of requests) {
    const event = JSON.parse(request.body) as { type: string; data: { name?: string } };
    if (event.type !== "lead.received" || typeof event.data.name !== "string") continue;
    counts.set(event.data.name, (counts.get(event.data.name) ?? 0) + 1);
  }
  return counts;
}

/** The enquiry outcomes a server logged (`{"event":"enquiry","outcome":…}` lines), counted by outcome. */
function enquiryOutcomes(outputs: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const line of outputs.join("\n").split("\n")) {
    if (!line.startsWith('{"event":"enquiry"')) continue;
    const { outcome } = JSON.parse(line) as { outcome: string };
    counts.set(outcome, (counts.get(outcome) ?? 0) + 1);
  }
  return counts;
}

const seconds = (ms: number) => (ms / 1000).toFixed(1);

test("three replicas through a SIGKILL, pg_terminate_backend of idle connections and of one in a transaction, a 10 s LOCK TABLE and a 5 s database stop: every lead answered 303 is stored and reaches EmailJS and the webhook once", async ({
  fake,
  folder,
  databaseUrl,
  postgres,
  serverNode,
}, testInfo) => {
  const hook = await startWebhookReceiver({ secret: SECRET });
  const env = { LEAD_WEBHOOK_URL: hook.url, LEAD_WEBHOOK_SECRET: SECRET, ENQUIRY_FLOOD_LIMIT: "0" };
  const options = { databaseUrl, fake, folder, node: serverNode, env };
  const set = await startReplicas({ ...options, count: 3 });
  /** Every server started, the killed one too: each is stopped and its log read at the end. */
  const servers: RunningServer[] = set.replicas.map((replica) => replica.server);
  const replicas: Replica[] = [...set.replicas];
  const locker = new pg.Client({ connectionString: databaseUrl });
  // Its connection ends with the database's stop if the test fails before it lets go.
  locker.on("error", () => {});
  const started = Date.now();
  const marks: string[] = [];
  const mark = (what: string) => marks.push(`${what} at ${seconds(Date.now() - started)} s`);
  const stream = enquiryStream(set.proxy.url, "Spool", 250, { overlap: true });
  const answered303Since = (time: number) =>
    stream.since(time).filter((outcome) => outcome.status === 303).length;
  const waitForEnquiries = async (since: number, count: number, status: "303" | "any") =>
    expect
      .poll(() => (status === "303" ? answered303Since(since) : stream.since(since).length), {
        timeout: 60_000,
      })
      .toBeGreaterThanOrEqual(count);
  /** Leads waiting in the replicas' spools, as each one's /healthz details count them. */
  const spooledNow = async () => {
    const details = await Promise.all(replicas.map((replica) => healthDetails(replica.server.url)));
    return details.reduce((sum, detail) => sum + (detail.leads.spooled ?? 0), 0);
  };
  let mostSpooled = 0;
  const watchSpool = async () => {
    const now = await spooledNow().catch(() => 0);
    mostSpooled = Math.max(mostSpooled, now);
    return now;
  };
  let streamStopped = false;
  try {
    await waitForEnquiries(started, BETWEEN_FAULTS, "303");

    // 1. The replica delivering (it sent EmailJS's last request) is SIGKILLed, then started again
    //    on its own data folder, as a platform restarts a container.
    const last = fake.requests.at(-1);
    const victim = replicas.find((replica) => last && replica.name === set.sentBy(last)) ?? replicas[0];
    if (!victim) throw new Error("no replica");
    const exited = once(victim.server.process, "exit");
    victim.server.process.kill("SIGKILL");
    await exited;
    mark(`SIGKILL of ${victim.name}`);
    set.proxy.remove(victim.server.url);
    const restarted = await startReplica(victim.name, options);
    servers.push(restarted.server);
    replicas.splice(replicas.indexOf(victim), 1, restarted);
    set.proxy.add(restarted.server.url);
    mark(`${victim.name} restarted`);
    await waitForEnquiries(Date.now(), BETWEEN_FAULTS, "303");

    // 2. The replicas' idle connections cut.
    const idle = await postgres.sql(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name LIKE 'replica-%' AND state = 'idle'",
    );
    mark(`${idle.length} idle connections terminated`);
    await waitForEnquiries(Date.now(), BETWEEN_FAULTS, "303");

    // 3. The leads table locked, for as long as 32 enquiries take to be answered (about 10 s);
    //    meanwhile one replica connection waiting in a transaction (an insert) is cut.
    await locker.connect();
    await locker.query("BEGIN");
    await locker.query("LOCK TABLE leads IN ACCESS EXCLUSIVE MODE");
    const lockedAt = Date.now();
    mark("leads table locked");
    let inTransaction = 0;
    await expect
      .poll(
        async () => {
          const cut = await postgres.sql(
            `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
             WHERE application_name LIKE 'replica-%' AND xact_start IS NOT NULL AND wait_event_type = 'Lock'
             LIMIT 1`,
          );
          inTransaction = cut.length;
          return inTransaction;
        },
        { timeout: 30_000 },
      )
      .toBe(1);
    mark("a connection waiting in a transaction terminated");
    await expect.poll(watchSpool, { timeout: 30_000 }).toBeGreaterThan(0);
    await waitForEnquiries(lockedAt, ANSWERED_DURING_LOCK, "any");
    const lockAnswers = stream.since(lockedAt).map((outcome) => outcome.ms);
    await locker.query("COMMIT");
    const lockedMs = Date.now() - lockedAt;
    await locker.end();
    mark(`leads table unlocked after ${seconds(lockedMs)} s`);
    await waitForEnquiries(Date.now(), BETWEEN_FAULTS, "303");

    // 4. The database stopped, for as long as 16 enquiries take to be answered (about 5 s).
    await postgres.stop();
    const stoppedAt = Date.now();
    mark("database stopped");
    await expect.poll(watchSpool, { timeout: 30_000 }).toBeGreaterThan(0);
    await waitForEnquiries(stoppedAt, ANSWERED_DURING_STOP, "any");
    await postgres.start();
    const stoppedMs = Date.now() - stoppedAt;
    mark(`database started after ${seconds(stoppedMs)} s`);
    const lastFaultAt = Date.now();
    await waitForEnquiries(lastFaultAt, BETWEEN_FAULTS, "303");
    const outcomes = await stream.stop();
    streamStopped = true;
    mark("enquiries stopped");

    // What the visitors got: 303, or no answer from a replica killed under their request.
    const answered = outcomes.filter((outcome) => outcome.status === 303).map((outcome) => outcome.name);
    const unanswered = outcomes.filter((outcome) => outcome.status !== 303);
    expect(unanswered.filter((outcome) => outcome.status !== 502 && outcome.status !== 0)).toEqual([]);

    // Every 303 is in the store once, the spools empty…
    const inStore = async () => {
      const names = (await leadsInDatabase(databaseUrl, folder)).map((lead) => lead.name);
      return answered.filter((name) => !names.includes(name));
    };
    await expect.poll(inStore, { timeout: 90_000, intervals: [1_000] }).toEqual([]);
    await expect.poll(spooledNow, { timeout: 30_000 }).toBe(0);
    // …and reaches EmailJS and the webhook.
    const missing = () => {
      const hooked = webhookDeliveries(hook.requests);
      return {
        emailjs: answered.filter((name) => requestsFor(fake, name).length === 0).length,
        webhook: answered.filter((name) => !hooked.has(name)).length,
      };
    };
    await expect.poll(missing, { timeout: 120_000, intervals: [1_000] }).toEqual({ emailjs: 0, webhook: 0 });
    const deliveredMs = Date.now() - lastFaultAt;
    await expect
      .poll(
        async () => (await leadsInDatabase(databaseUrl, folder)).filter((lead) => lead.state !== "sent"),
        {
          timeout: 60_000,
          intervals: [1_000],
        },
      )
      .toEqual([]);

    const stored = await leadsInDatabase(databaseUrl, folder);
    const storedNames = stored.map((lead) => lead.name);
    const storedTwice = answered.filter((name) => storedNames.filter((each) => each === name).length > 1);
    expect(storedTwice).toEqual([]);
    const hooked = webhookDeliveries(hook.requests);
    const emailJsSends = answered.map((name) => requestsFor(fake, name).length);
    const webhookSends = answered.map((name) => hooked.get(name) ?? 0);
    const extra = (sends: number[]) => sends.reduce((sum, count) => sum + count - 1, 0);
    const logged = enquiryOutcomes(servers.map((server) => server.output()));
    const sortedWaits = outcomes
      .filter((o) => o.status === 303)
      .map((o) => o.ms)
      .sort((a, b) => a - b);
    figures(
      testInfo,
      "lead spool",
      `${outcomes.length} enquiries sent, ${answered.length} answered 303 (${logged.get("stored") ?? 0} stored at once, ${logged.get("spooled") ?? 0} spooled, ${logged.get("sent") ?? 0} sent directly), ${unanswered.length} unanswered (${unanswered.map((o) => o.status).join(", ") || "none"}); ` +
        `${answered.filter((name) => storedNames.includes(name)).length} in the store (${storedTwice.length} twice), most spooled at once ${mostSpooled}; ` +
        `EmailJS ${emailJsSends.reduce((a, b) => a + b, 0)} deliveries (${extra(emailJsSends)} duplicates), webhook ${webhookSends.reduce((a, b) => a + b, 0)} (${extra(webhookSends)} duplicates); ` +
        `every 303 delivered ${seconds(deliveredMs)} s after the last fault; answers: median ${sortedWaits[Math.floor(sortedWaits.length / 2)]} ms, slowest ${sortedWaits.at(-1)} ms, slowest during the lock ${Math.max(...lockAnswers)} ms; ` +
        `${idle.length} idle connections and ${inTransaction} in a transaction terminated; ${marks.join(", ")}; ${seconds(Date.now() - started)} s in all`,
    );
    // One crash (the SIGKILL): at most one more send per destination.
    expect(extra(emailJsSends)).toBeLessThanOrEqual(1);
    expect(extra(webhookSends)).toBeLessThanOrEqual(1);
    expect(emailJsSends.filter((count) => count === 0)).toEqual([]);
    // Nothing needed a direct send: the spool kept what the database could not take.
    expect(logged.get("sent") ?? 0).toBe(0);
    expect(logged.get("spooled") ?? 0).toBeGreaterThan(0);
    // Every request the receiver got was signed as Standard Webhooks.
    expect(
      hook.requests.filter((request) => !request.verified).map((request) => request.verifyError),
    ).toEqual([]);
    // The operator read where the leads waited and that they moved in.
    const logs = servers.map((server) => server.output()).join("\n");
    expect(logs).toMatch(
      /lead store: the database did not take an enquiry \([^)]*\); enquiries wait in the spool /,
    );
    expect(logs).toMatch(/lead spool: moved \d+ leads? from .* into the database; none waits there now/);
  } finally {
    if (!streamStopped) await stream.stop();
    await locker.end().catch(() => undefined);
    await postgres.start();
    await set.proxy.stop();
    await Promise.all(servers.map((server) => server.stop()));
    await hook.close();
    servers.forEach((server, index) => {
      writeFileSync(testInfo.outputPath(`server-${index + 1}.log`), server.output());
    });
  }
});
