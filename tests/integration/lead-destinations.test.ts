import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Database } from "~/db/database.server";
import { readMigrations } from "~/db/migrations.server";
import type { DeliveryResult } from "~/destinations/destination";
import type { Enquiry } from "~/lead-parts/enquiry";
import { type LeadStore, StoreFullError } from "~/leads/contract.server";
import type { DelivererLock } from "~/leads/deliverer-lock";
import { createDelivery, type DestinationRoutes, type GaveUp } from "~/leads/delivery/delivery.server";
import { createFolderDelivererLock, delivererLockPath } from "~/leads/folder/lock.server";
import { createFolderLeadStore } from "~/leads/folder/store.server";
import type { DeliveryRecord, Lead } from "~/leads/lead";
import { createPostgresDelivererLock } from "~/leads/postgres/lock.server";
import { createPostgresLeadStore } from "~/leads/postgres/store.server";
import { cleanupHookMs, createCleanups } from "../support/cleanups";
import { gate } from "../support/gate";
import { openMigratedDatabase } from "../support/migrated-database";
import { startPostgres, type TestPostgres } from "../support/postgres";

// Each lead's destinations on both stores: one destination's record never undoes another's, the
// lead's state is derived from them (counts, the cap, retention), delivery runs one loop per
// destination, and rows the release before this one stored read as EmailJS-only.
let postgres: TestPostgres;
beforeAll(async () => {
  postgres = await startPostgres("pg-lead-destinations");
}, 60_000);
afterAll(async () => {
  await postgres?.dispose();
}, 60_000);

const enquiry: Enquiry = {
  name: "Asha Rao",
  email: "asha@example.in",
  countryCode: "91",
  phoneNumber: "9876543210",
  message: "A booking app",
};

const cleanups = createCleanups();
afterEach(async () => {
  vi.restoreAllMocks();
  await cleanups.run();
}, cleanupHookMs(6));

async function newDatabase(migrations = readMigrations(), url?: string, stopAfter = true): Promise<Database> {
  const database = await openMigratedDatabase(url ?? (await postgres.createDatabase()), migrations);
  if (stopAfter) cleanups.add(`pool ${cleanups.size + 1} closes (database.stop)`, () => database.stop());
  return database;
}

interface Place {
  open(options?: { maxLeads?: number; now?: () => Date }): LeadStore;
  lock(): DelivererLock;
}

const kinds: { name: string; place(): Promise<Place> }[] = [
  {
    name: "the folder",
    async place() {
      const root = await mkdtemp(join(tmpdir(), "lead-destinations-"));
      cleanups.add(`the folder ${root} is removed`, () => rm(root, { recursive: true, force: true }));
      const folder = join(root, "data", "leads");
      await mkdir(folder, { recursive: true });
      return {
        open: (options = {}) => createFolderLeadStore({ folder, log: () => {}, ...options }),
        lock: () => createFolderDelivererLock({ path: delivererLockPath(folder) }),
      };
    },
  },
  {
    name: "PostgreSQL",
    async place() {
      const database = await newDatabase();
      return {
        open: (options = {}) => createPostgresLeadStore({ database, log: () => {}, ...options }),
        lock: () => createPostgresDelivererLock(database),
      };
    },
  },
];

/** Delivery on `place` with `routes`, quick timers and jitter at its least, stopped after the test. */
function startDelivery(
  place: Place,
  store: LeadStore,
  routes: DestinationRoutes,
  onGaveUp?: (gaveUp: GaveUp) => void,
) {
  const delivery = createDelivery({
    store,
    routes,
    lock: place.lock(),
    intervalMs: 0,
    retentionDays: 90,
    spamRetentionDays: 30,
    heartbeatMs: 50,
    scanMs: 100,
    random: () => 0,
    onGaveUp,
    log: () => {},
  });
  cleanups.add("a delivery stops (delivery.stop)", () => delivery.stop());
  delivery.start();
  return delivery;
}

const record = (lead: Lead, destination: "emailjs" | "webhook", changes: Partial<DeliveryRecord>) => ({
  ...(lead.destinations[destination] as DeliveryRecord),
  ...changes,
});

describe.each(kinds)("destinations in $name", (kind) => {
  it("keeps each destination's record: an outcome written from a stale copy never undoes another's", async () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    const place = await kind.place();
    const store = place.open();
    const lead = await store.add(enquiry, ["emailjs", "webhook"]);
    expect(lead).toMatchObject({
      state: "pending",
      destinations: { emailjs: { state: "pending" }, webhook: {} },
    });
    const forEmailJs = (await store.claimNext("emailjs", new Set())).lead as Lead;
    const forWebhook = (await store.claimNext("webhook", new Set())).lead as Lead;
    expect([forEmailJs.id, forWebhook.id]).toEqual([lead.id, lead.id]);
    const refused = record(forWebhook, "webhook", { state: "failed", attempts: 1, lastError: "HTTP 410" });
    // Failed at the webhook, still pending at EmailJS: the lead waits.
    expect(await store.saveDelivery(forWebhook, "webhook", refused)).toMatchObject({ state: "pending" });
    // Claimed before the webhook's outcome landed: it still says the webhook is pending.
    const sent = record(forEmailJs, "emailjs", { state: "sent", attempts: 1 });
    const stored = await store.saveDelivery(forEmailJs, "emailjs", sent);
    expect(stored?.destinations).toEqual({ emailjs: sent, webhook: refused });
    const [read] = await place.open().list();
    expect(read).toMatchObject({ state: "failed", destinations: { emailjs: sent, webhook: refused } });
    expect(await place.open().counts()).toMatchObject({ pending: 0, failed: 1, sent: 0 });
  });

  it("derives the lead's state for the cap and retention: a lead pending at one destination counts, and stays", async () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    const place = await kind.place();
    let time = Date.now();
    const store = place.open({ maxLeads: 1, now: () => new Date(time) });
    const lead = await store.add(enquiry, ["webhook"]);
    await expect(store.add(enquiry, ["webhook"])).rejects.toThrow(StoreFullError);
    expect(await store.prune({ days: 0, spamDays: 0 })).toBe(0);
    const claimed = (await store.claimNext("webhook", new Set())).lead as Lead;
    await store.saveDelivery(claimed, "webhook", record(claimed, "webhook", { state: "sent", attempts: 1 }));
    expect(await store.counts()).toMatchObject({ pending: 0, sent: 1 });
    // Delivered, it makes room and goes at the end of its retention.
    await expect(store.add(enquiry, [])).resolves.toMatchObject({ state: "inbox", destinations: {} });
    time += 60_000;
    // (The folder also makes room by removing its oldest delivered lead: the first, already.)
    await store.prune({ days: 0, spamDays: 0 });
    expect(await store.has(lead.id)).toBe(false);
    expect(await store.list()).toEqual([]);
  });

  it("delivers to each destination on its own: a hang at the webhook holds up no EmailJS send, a 500 is retried, a 410 gives up once", async () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    const place = await kind.place();
    const store = place.open();
    const hung = gate();
    const sends: string[] = [];
    const webhookAnswers: Array<DeliveryResult | "hang"> = [
      "hang",
      { ok: false, retry: true, error: { status: 500, cause: "HTTP 500" } },
      { ok: false, retry: false, error: { status: 410, cause: "HTTP 410" } },
    ];
    const routes: DestinationRoutes = {
      async emailjs(lead) {
        sends.push(`emailjs ${lead.enquiry.name}`);
        return { ok: true };
      },
      async webhook(lead) {
        sends.push(`webhook ${lead.enquiry.name}`);
        const answer = webhookAnswers.shift() ?? { ok: true };
        if (answer !== "hang") return answer;
        await hung.promise;
        return { ok: true };
      },
    };
    const gaveUp: GaveUp[] = [];
    const delivery = startDelivery(place, store, routes, (failure) => gaveUp.push(failure));
    const names = ["A", "B", "C"];
    for (const name of names) await store.add({ ...enquiry, name }, ["emailjs", "webhook"]);
    delivery.wake();
    // The webhook hangs on A: EmailJS gets all three meanwhile.
    await expect
      .poll(() => sends.filter((send) => send.startsWith("emailjs")))
      .toEqual(names.map((name) => `emailjs ${name}`));
    // The webhook's first send begins once it is recorded as begun, which may come after EmailJS's.
    await expect.poll(() => sends.filter((send) => send.startsWith("webhook"))).toEqual(["webhook A"]);
    hung.open();
    const reader = place.open();
    // A folder store reads what another process wrote at its next scan.
    const pending = async () => {
      await reader.scan();
      return (await reader.counts()).pending;
    };
    await expect.poll(pending, { timeout: 20_000 }).toBe(0);
    const leads = await reader.list();
    const states = leads.map((lead) => [lead.enquiry.name, lead.state, lead.destinations.webhook?.attempts]);
    // B's 500 was retried (2 attempts); C's 410 failed it at once; EmailJS sent each once.
    expect(states).toEqual([
      ["A", "sent", 1],
      ["B", "sent", 2],
      ["C", "failed", 1],
    ]);
    expect(sends.filter((send) => send.startsWith("emailjs"))).toHaveLength(3);
    const failedId = leads[2]?.id;
    expect(gaveUp).toEqual([
      { leadId: failedId, destination: "webhook", attempts: 1, error: { status: 410, cause: "HTTP 410" } },
    ]);
    expect(delivery.isDeliverer()).toBe(true);
  });

  it("drops a destination that is not configured from the leads queued for it (a release on a server without it)", async () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    const place = await kind.place();
    const store = place.open();
    await store.add(enquiry, ["emailjs", "webhook"]);
    const sent: string[] = [];
    startDelivery(place, store, {
      async emailjs(lead) {
        sent.push(lead.enquiry.name);
        return { ok: true };
      },
    });
    const reader = place.open();
    await expect.poll(async () => (await reader.list())[0]?.state).toBe("sent");
    expect((await reader.list())[0]?.destinations).toEqual({
      emailjs: expect.objectContaining({ state: "sent" }),
    });
    expect(sent).toEqual([enquiry.name]);
  });
});

describe("PostgreSQL rows of the release before destinations", () => {
  /** A row as the release before inserts it: no `destinations` column named. */
  const insertOld = (database: Database, state: string, name: string) =>
    database.query(
      `INSERT INTO leads (id, received_at, state, attempts, next_attempt_at, queued_at, enquiry, reason)
       VALUES (gen_random_uuid(), now(), $1, 0, now(), now(), $2::jsonb, $3)`,
      [state, JSON.stringify({ ...enquiry, name }), state === "spam" ? "honeypot" : null],
    );

  it("migration 0004 makes stored leads EmailJS-only (inbox and spam: none); rows an old server stores later are adopted once with the webhook", async () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    const url = await postgres.createDatabase();
    const before = await newDatabase(readMigrations().slice(0, 3), url, false);
    for (const state of ["pending", "sent", "failed", "inbox", "spam"])
      await insertOld(before, state, `before ${state}`);
    await before.stop();
    const database = await newDatabase(readMigrations(), url);
    const store = createPostgresLeadStore({ database, log: () => {} });
    const shape = async () =>
      Object.fromEntries(
        (await store.list()).map((lead) => [
          lead.enquiry.name,
          `${lead.state}: ${Object.entries(lead.destinations)
            .map(([name, kept]) => `${name} ${kept.state}`)
            .join(", ")}`,
        ]),
      );
    const migrated = {
      "before pending": "pending: emailjs pending",
      "before sent": "sent: emailjs sent",
      "before failed": "failed: emailjs failed",
      "before inbox": "inbox: ",
      "before spam": "spam: ",
    };
    expect(await shape()).toEqual(migrated);
    // The old server goes on storing during the rolling deploy: its rows have no destinations yet.
    await insertOld(database, "pending", "old pending");
    await insertOld(database, "inbox", "old inbox");
    await insertOld(database, "spam", "old spam");
    expect(await shape()).toMatchObject({
      "old pending": "pending: emailjs pending",
      "old inbox": "inbox: ",
    });
    // Two deliverers adopt at once, and again: each old row gets its webhook delivery once.
    const other = createPostgresLeadStore({
      database: await newDatabase(readMigrations(), url),
      log: () => {},
    });
    await Promise.all([store.adopt(["emailjs", "webhook"]), other.adopt(["emailjs", "webhook"])]);
    await store.adopt(["emailjs", "webhook"]);
    expect(await shape()).toEqual({
      ...migrated,
      "old pending": "pending: emailjs pending, webhook pending",
      "old inbox": "pending: webhook pending",
      "old spam": "spam: ",
    });
    const { rows } = await database.query<{ count: number }>(
      "SELECT count(*)::int AS count FROM lead_deliveries",
    );
    expect(rows[0]?.count).toBe(2);
  });
});
