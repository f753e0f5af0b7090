import { describeMigration } from "../../app/db/migrate.server";
import { readMigrations } from "../../app/db/migrations.server";
import { SCAN_MS } from "../../app/leads/delivery/delivery.server";
import type { FakeEmailJs } from "../support/fake-emailjs";
import { figures } from "../support/fault-watch";
import { requestsFor } from "../support/lead-fixtures";
import { fakeHostFor, replicaTest } from "../support/postgres-fixtures";
import { expectThroughout, windowCovering } from "../support/quiet-window";
import { RELEASES, startReleaseReplica, unpackRelease } from "../support/release-server";
import { type LeadJson, leadsInDatabase, type Replica, sentBy, startReplica } from "../support/replicas";
import {
  appliedMigrations,
  delivererName,
  enquire,
  type SchemaColumn,
  schemaColumns,
  senderTurns,
} from "../support/rolling-deploy";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver";

// A rolling deploy from the last release before destinations (EmailJS only) to this build, whose
// replicas also post each lead to a webhook, on one PostgreSQL. Two old replicas store leads
// EmailJS takes, refuses for good and cannot reach yet; a replica of this build starts with
// LEAD_WEBHOOK_URL/SECRET and migrates the database (0004) while they keep serving; the old ones
// store, send and write outcomes on the expanded schema; the deliverer lock passes from the old
// release to this build, back to an old replica, and to this build again, each time while leads
// wait. Every lead reaches EmailJS once (the one EmailJS refused for good: never), and every lead
// stored after the migration, by either release, reaches the webhook once, checked by a real
// receiver with the standardwebhooks package's `verify`.

const test = replicaTest(fakeHostFor(36));
const { expect } = test;
test.describe.configure({ mode: "default", timeout: 300_000 });

/** The receiver's and this build's secret: `whsec_` and a 32-byte key. */
const SECRET = `whsec_${Buffer.from("rolling-deploy-webhook-secret-32").toString("base64")}`;

/** A lead sent during the deploy: who stored it, and whether migration 0004 had run by then. */
interface DeployLead {
  name: string;
  by: string;
  migrated: boolean;
}

/** The sends EmailJS took (answered 200) of the lead named `name`. */
const taken = (fake: FakeEmailJs, name: string) =>
  requestsFor(fake, name).filter((request) => request.status === 200).length;

/** The `lead.received` events the receiver took of the lead named `name`. */
const receivedEvents = (receiver: WebhookReceiver, name: string) =>
  receiver.requests.filter((request) => {
    const body = JSON.parse(request.body) as { type?: string; data?: { name?: string } };
    return body.type === "lead.received" && body.data?.name === name;
  });

/** Each destination of a lead and its state, as `npm run leads -- --json` shows them. */
const destinationStates = (lead: LeadJson | undefined) =>
  Object.fromEntries(Object.entries(lead?.destinations ?? {}).map(([name, record]) => [name, record.state]));

/** `columns` by table and name. */
const byColumn = (columns: SchemaColumn[]) =>
  new Map(columns.map((column) => [`${column.table}.${column.column}`, column]));

/**
 * The deliverer lock passes from `from` to `to`: `from` stops (SIGTERM) while the replicas of
 * `paused` are stopped by SIGSTOP, so that `to` is the one that takes it (which replica would is
 * otherwise a race); they go on (SIGCONT) once it has.
 */
async function handOver(databaseUrl: string, from: Replica, to: Replica, paused: Replica[] = []) {
  for (const replica of paused) replica.server.process.kill("SIGSTOP");
  try {
    await from.server.stop();
    await expect
      .poll(() => delivererName(databaseUrl), {
        message: `${to.name} takes the deliverer lock`,
        timeout: 30_000,
      })
      .toBe(to.name);
  } finally {
    for (const replica of paused) replica.server.process.kill("SIGCONT");
  }
}

test("a rolling deploy from release 5df2c5a to this build with a lead webhook: every lead reaches EmailJS once, and every lead stored after the migration, by either release, reaches the webhook once", async ({
  browser,
  fake,
  folder,
  databaseUrl,
  serverNode,
}, testInfo) => {
  const started = Date.now();
  const receiver = await startWebhookReceiver({ secret: SECRET });
  const release = unpackRelease(RELEASES.emailJsOnly);
  const options = { databaseUrl, fake, folder, node: serverNode };
  // The webhook is this build's alone: the old release knows no such variables.
  const current = { ...options, env: { LEAD_WEBHOOK_URL: receiver.url, LEAD_WEBHOOK_SECRET: SECRET } };
  const running: Replica[] = [];
  const start = async (replica: Promise<Replica>) => {
    running.push(await replica);
    return running[running.length - 1] as Replica;
  };
  const leads: DeployLead[] = [];
  let migrated = false;
  const send = async (replica: Replica, text: string) => {
    const name = await enquire(browser, replica, `${text} ${replica.name} ${Date.now().toString(36)}`);
    leads.push({ name, by: replica.name, migrated });
    return name;
  };
  const named = (text: string) => leads.filter((lead) => lead.name.startsWith(text)).map((lead) => lead.name);
  /** What each lead reached, and what it must have by the end: EmailJS once (never the one refused for good), the webhook once if stored after the migration. */
  const deliveries = () =>
    leads.map(({ name, migrated }) => ({
      name,
      emailjs: taken(fake, name),
      webhook: receivedEvents(receiver, name).length,
      expected: { emailjs: name.startsWith("Failed before") ? 0 : 1, webhook: migrated ? 1 : 0 },
    }));
  const unexpectedDeliveries = () =>
    deliveries().filter(
      ({ emailjs, webhook, expected }) => emailjs !== expected.emailjs || webhook !== expected.webhook,
    );
  const sentTwice = () => deliveries().filter(({ emailjs, webhook }) => emailjs > 1 || webhook > 1);

  try {
    const [old1, old2] =
      await test.step("before the deploy: two old replicas store leads EmailJS takes, refuses for good, and cannot reach yet", async () => {
        fake.respondWith({ kind: "ok" });
        const first = await start(startReleaseReplica(release, "old-1", options));
        await expect.poll(() => delivererName(databaseUrl)).toBe("old-1");
        const second = await start(startReleaseReplica(release, "old-2", options));
        for (const replica of [first, second]) await send(replica, "Sent before");
        await expect.poll(() => named("Sent before").map((name) => taken(fake, name))).toEqual([1, 1]);
        // A revoked Gmail grant: EmailJS refuses for good, and the lead is failed.
        fake.respondWith({ kind: "status", status: 412, text: "Gmail grant revoked" });
        await send(first, "Failed before");
        fake.respondWith({ kind: "status", status: 503, text: "Service Unavailable" });
        for (const replica of [first, second]) await send(replica, "Pending before");
        // As the old release's own `npm run leads -- --json` reads them: outcomes written.
        const expected = (lead: DeployLead) =>
          lead.name.startsWith("Sent") ? "sent" : lead.name.startsWith("Failed") ? "failed" : "pending";
        await expect
          .poll(async () =>
            (await leadsInDatabase(databaseUrl, folder, release.folder))
              .map((lead) => `${lead.name}: ${lead.state}`)
              .sort(),
          )
          .toEqual(leads.map((lead) => `${lead.name}: ${expected(lead)}`).sort());
        // Each tried and refused before the migration.
        await expect
          .poll(() => named("Pending before").map((name) => requestsFor(fake, name).length > 0))
          .toEqual([true, true]);
        return [first, second];
      });

    const oldColumns = await schemaColumns(databaseUrl);
    const oldMigrations = new Set((await appliedMigrations(databaseUrl)).map((row) => row.version));
    const new1 =
      await test.step("this build starts with the webhook and migrates the database while the old replicas serve", async () => {
        const replica = await start(startReplica("new-1", current));
        migrated = true;
        const applied = readMigrations()
          .map((migration) => migration.version)
          .filter((version) => !oldMigrations.has(version));
        expect(applied.length, "migrations this build brings").toBeGreaterThan(0);
        for (const line of describeMigration({ applied, adopted: [], edited: [] })) {
          await expect.poll(() => replica.server.output().split("\n")).toContain(line);
        }
        // Expand only: every column of the old release stays, with its type, nullability and default,
        // and a column added to one of its tables is nullable or has a default, so its INSERTs still work.
        const columns = await schemaColumns(databaseUrl);
        const now = byColumn(columns);
        expect(oldColumns.map((column) => now.get(`${column.table}.${column.column}`))).toEqual(oldColumns);
        const oldTables = new Set(oldColumns.map((column) => column.table));
        const was = byColumn(oldColumns);
        const added = columns.filter(
          (column) => oldTables.has(column.table) && !was.has(`${column.table}.${column.column}`),
        );
        expect(added.filter((column) => !column.nullable && column.default === null)).toEqual([]);
        figures(
          testInfo,
          "rolling deploy destinations",
          `5df2c5a → this build: migrations ${applied.join(", ")} applied; columns added to the old tables: ${added.map((column) => `${column.table}.${column.column} ${column.type}`).join(", ")}; ${oldColumns.length} old columns unchanged`,
        );
        // The issue: stored leads that are pending, sent or failed read as EmailJS-only. They were
        // stored for EmailJS alone, before the webhook existed, so they never reach it.
        const stored = await leadsInDatabase(databaseUrl, folder);
        expect(leads.map((lead) => destinationStates(stored.find((row) => row.name === lead.name)))).toEqual([
          { emailjs: "sent" },
          { emailjs: "sent" },
          { emailjs: "failed" },
          { emailjs: "pending" },
          { emailjs: "pending" },
        ]);
        return replica;
      });

    await test.step("after the migration the old replicas store, send and write outcomes; this build stores too", async () => {
      for (const replica of [old1, old2, new1]) await send(replica, "After migration");
      // old-1 still delivers: it tries each (this build's lead too) and writes EmailJS's refusal.
      await expect
        .poll(() =>
          named("After migration").map((name) =>
            requestsFor(fake, name).some((request) => request.status === 503 && sentBy(request) === "old-1"),
          ),
        )
        .toEqual([true, true, true]);
      await expect
        .poll(async () => {
          const stored = await leadsInDatabase(databaseUrl, folder);
          return named("After migration").map((name) => {
            const emailjs = stored.find((row) => row.name === name)?.destinations?.emailjs;
            return (emailjs?.attempts ?? 0) > 0 && (emailjs?.lastError ?? "").includes("503");
          });
        })
        .toEqual([true, true, true]);
      // Only the deliverer sends, and the old one knows no webhook: it waits.
      expect(receiver.requests).toEqual([]);
    });

    await test.step("the lock passes from the old release to this build while leads wait: it sends each once, and adopts the old replicas' leads for the webhook", async () => {
      fake.respondWith({ kind: "ok" });
      const since = Date.now();
      await handOver(databaseUrl, old1, new1, [old2]);
      await send(old2, "After handover");
      await expect.poll(unexpectedDeliveries, { timeout: 60_000 }).toEqual([]);
      figures(
        testInfo,
        "rolling deploy destinations",
        `old-1 → new-1: ${leads.length} leads where they belong ${((Date.now() - since) / 1000).toFixed(1)} s after EmailJS came back`,
      );
    });

    await test.step("the lock passes back to an old replica while leads wait: it sends each of them once, and nothing this build sent", async () => {
      fake.respondWith({ kind: "status", status: 503, text: "Service Unavailable" });
      for (const replica of [new1, old2]) await send(replica, "Handed back");
      await expect
        .poll(() =>
          named("Handed back").map(
            (name) =>
              requestsFor(fake, name).some((request) => sentBy(request) === "new-1") &&
              receivedEvents(receiver, name).length === 1,
          ),
        )
        .toEqual([true, true]);
      fake.respondWith({ kind: "ok" });
      await handOver(databaseUrl, new1, old2);
      const last = await send(old2, "Last old");
      await expect
        .poll(() => [...named("Handed back"), last].map((name) => taken(fake, name)))
        .toEqual([1, 1, 1]);
      // Every EmailJS record this build wrote is read by the old deliverer as it wrote it.
      await expectThroughout(windowCovering(SCAN_MS), () => {
        expect(sentTwice()).toEqual([]);
      });
    });

    await test.step("a second replica of this build takes the lock from the last old one and delivers what waits for the webhook", async () => {
      const new2 = await start(startReplica("new-2", current));
      expect(new2.server.output()).not.toContain("database: applied migrations");
      await handOver(databaseUrl, old2, new2);
      await send(new2, "Final");
      await expect.poll(unexpectedDeliveries, { timeout: 60_000 }).toEqual([]);
      await expectThroughout(windowCovering(SCAN_MS), () => {
        expect(unexpectedDeliveries()).toEqual([]);
      });
    });

    await test.step("the receiver verified every request, and both releases' `npm run leads -- --json` show every lead", async () => {
      expect(receiver.requests.filter((request) => request.verified !== true)).toEqual([]);
      expect(receiver.requests.map((request) => request.method)).toEqual(receiver.requests.map(() => "POST"));
      const stored = await leadsInDatabase(databaseUrl, folder);
      expect(stored.map((lead) => lead.name).sort()).toEqual(leads.map((lead) => lead.name).sort());
      const ids = new Map(stored.map((lead) => [lead.name, lead.id]));
      expect(receiver.requests.map((request) => request.headers["webhook-id"]).sort()).toEqual(
        leads
          .filter((lead) => lead.migrated)
          .map((lead) => `msg_${ids.get(lead.name)}_received`)
          .sort(),
      );
      expect(leads.map((lead) => destinationStates(stored.find((row) => row.name === lead.name)))).toEqual(
        leads.map((lead) =>
          lead.migrated
            ? { emailjs: "sent", webhook: "sent" }
            : { emailjs: lead.name.startsWith("Failed before") ? "failed" : "sent" },
        ),
      );
      // The old release reads the expanded schema too: EmailJS's record, in the row's own columns.
      const seenByOld = await leadsInDatabase(databaseUrl, folder, release.folder);
      expect(seenByOld.map((lead) => [lead.name, lead.state]).sort()).toEqual(
        leads.map((lead) => [lead.name, lead.name.startsWith("Failed before") ? "failed" : "sent"]).sort(),
      );
      // One deliverer at a time, whichever release: each handover is one turn.
      expect(senderTurns(fake)).toEqual(["old-1", "new-1", "old-2", "new-2"]);
      const byRelease = leads.filter((lead) => lead.migrated && lead.by.startsWith("old-")).length;
      figures(
        testInfo,
        "rolling deploy destinations",
        `${leads.length} leads (${leads.filter((lead) => !lead.migrated).length} before the migration, ${byRelease} stored by old replicas after it): ${fake.requests.filter((request) => request.status === 200).length} sends EmailJS took, ${receiver.requests.length} webhook requests, all verified; the deploy took ${((Date.now() - started) / 1000).toFixed(1)} s`,
      );
    });
  } finally {
    await Promise.all(running.map((replica) => replica.server.stop()));
    release.dispose();
    await receiver.close();
  }
});
