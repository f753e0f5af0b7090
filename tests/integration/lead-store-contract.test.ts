import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createDatabase, type Database } from "~/db/database.server";
import { readMigrations } from "~/db/migrations.server";
import type { Enquiry } from "~/lead-parts/enquiry";
import type { LeadStore } from "~/leads/contract.server";
import type { DelivererLock } from "~/leads/deliverer-lock";
import { createDelivery, type Delivery, type DestinationSender } from "~/leads/delivery/delivery.server";
import { createFolderDelivererLock, delivererLockPath } from "~/leads/folder/lock.server";
import { createFolderLeadStore, erasedFolder } from "~/leads/folder/store.server";
import { type Lead, leadFileName, newLead } from "~/leads/lead";
import { IMPORT_MARKER, importLeadFolder } from "~/leads/postgres/import.server";
import { createPostgresDelivererLock } from "~/leads/postgres/lock.server";
import { createPostgresLeadStore } from "~/leads/postgres/store.server";
import { cleanupHookMs, createCleanups } from "../support/cleanups";
import { emailjsAs } from "../support/lead-records";
import { openMigratedDatabase } from "../support/migrated-database";
import { startPostgres, type TestPostgres } from "../support/postgres";

/** EmailJS as these tests stand in for it. */
type LeadMail = { kind: "send"; send: DestinationSender };

// One PostgreSQL for the whole file; each test gets a database (and a folder) of its own.
let postgres: TestPostgres;
beforeAll(async () => {
  postgres = await startPostgres("pg-lead-contract");
}, 60_000);
afterAll(async () => {
  await postgres?.dispose();
}, 60_000);

const enquiry: Enquiry = {
  name: "Asha Rao",
  email: "asha@example.in",
  countryCode: "91",
  phoneNumber: "9876543210",
  message: 'Line one\nLine two, with "quotes" and नमस्ते',
};

const DAY = 24 * 60 * 60_000;

/** A clock the test moves by hand. */
function fakeClock(start = "2026-11-01T10:00:00Z") {
  let time = Date.parse(start);
  return {
    now: () => new Date(time),
    advance: (ms: number) => {
      time += ms;
    },
  };
}

// A test starts at most three replicas (a pool and a delivery each) and a folder.
const cleanups = createCleanups();
afterEach(async () => {
  vi.restoreAllMocks();
  try {
    await cleanups.run();
  } finally {
    databaseNames.clear();
  }
}, cleanupHookMs(7));

async function newFolder() {
  const root = await mkdtemp(join(tmpdir(), "lead-contract-"));
  cleanups.add(`the folder ${root} is removed`, () => rm(root, { recursive: true, force: true }));
  return join(root, "data", "leads");
}

/** What the hook calls each pool of a test when it closes it. */
const databaseNames = new Map<Database, string>();
function named(database: Database, name: string) {
  databaseNames.set(database, name);
  cleanups.add(`${name} closes (database.stop)`, () => database.stop());
}

async function newDatabase(): Promise<Database> {
  const database = await openMigratedDatabase(await postgres.createDatabase());
  named(database, "the test's first pool");
  return database;
}

interface Kind {
  name: string;
  /** A place for leads; `open` gives each caller (a replica, the operator's CLI) a store on it. */
  place(): Promise<{
    open(options?: { now?: () => Date; maxSpamPerReason?: number; log?: (line: string) => void }): LeadStore;
    lock(): DelivererLock;
    /** Whether anything the store keeps (a lead file or row, an erasure record) holds `text`. */
    holds(text: string): Promise<boolean>;
  }>;
}

const kinds: Kind[] = [
  {
    name: "the folder",
    async place() {
      const folder = await newFolder();
      await mkdir(folder, { recursive: true });
      return {
        open: (options = {}) => createFolderLeadStore({ folder, log: () => {}, ...options }),
        lock: () => createFolderDelivererLock({ path: delivererLockPath(folder) }),
        async holds(text) {
          const data = join(folder, "..");
          const files = await readdir(data, { recursive: true, withFileTypes: true });
          for (const file of files.filter((entry) => entry.isFile())) {
            if ((await readFile(join(file.parentPath, file.name), "utf8")).includes(text)) return true;
          }
          return false;
        },
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
        async holds(text) {
          const { rows } = await database.query<{ count: number }>(
            `SELECT (SELECT count(*) FROM leads WHERE leads::text LIKE '%' || $1 || '%')
                  + (SELECT count(*) FROM erasures WHERE erasures::text LIKE '%' || $1 || '%') AS count`,
            [text],
          );
          return Number(rows[0]?.count) > 0;
        },
      };
    },
  },
];

describe.each(kinds)("the lead store contract: $name", (kind) => {
  it("adds leads, lists them oldest first in any replica, and counts each state", async () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    const place = await kind.place();
    const clock = fakeClock();
    const store = place.open({ now: clock.now });
    const first = await store.add(enquiry, ["emailjs"]);
    clock.advance(1_000);
    await store.add({ ...enquiry, name: "Second" }, []);
    const other = place.open();
    expect((await other.list()).map((lead) => [lead.enquiry, lead.state])).toEqual([
      [enquiry, "pending"],
      [{ ...enquiry, name: "Second" }, "inbox"],
    ]);
    expect(await other.counts()).toEqual({
      pending: 1,
      inbox: 1,
      sent: 0,
      failed: 0,
      spam: 0,
      oldestPendingAt: Date.parse(first.receivedAt),
      oldestPendingId: first.id,
    });
    expect(
      await other.counts(new Map([[first.id, emailjsAs(first, { state: "sent" as const })]])),
    ).toMatchObject({
      pending: 0,
      sent: 1,
      oldestPendingAt: null,
      oldestPendingId: null,
    });
  });

  it("reads the leads from a time, oldest or newest first (ties by id), a page at a time, as list reads them, never an erased one", async () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    const place = await kind.place();
    const clock = fakeClock();
    const store = place.open({ now: clock.now });
    const before = await store.add(enquiry, ["emailjs"]);
    clock.advance(60_000);
    // More than a page of PostgreSQL's (500), all received in one millisecond: its pages turn on the id.
    const count = kind.name === "PostgreSQL" ? 1_001 : 12;
    const same: Lead[] = [];
    for (let index = 0; index < count; index += 1)
      same.push(await store.add(enquiry, ["emailjs", "webhook"]));
    clock.advance(60_000);
    const spam = await store.quarantine({ ...enquiry, name: "Spam" }, "honeypot");
    const [, erased] = same;
    if (erased) await store.erase(erased);

    const read: Lead[] = [];
    for await (const lead of place.open().each(new Date(same[0]?.receivedAt ?? ""))) read.push(lead);
    const kept = same.filter((lead) => lead.id !== erased?.id).sort((a, b) => (a.id < b.id ? -1 : 1));
    expect(read.map((lead) => lead.id)).toEqual([...kept.map((lead) => lead.id), spam.id]);
    expect(read).toEqual((await place.open().list()).filter((lead) => lead.id !== before.id));
    const all: Lead[] = [];
    for await (const lead of place.open().each()) all.push(lead);
    expect(all.map((lead) => lead.id)).toEqual([before.id, ...read.map((lead) => lead.id)]);
    // Newest first (the operator's listing): the same leads, the other way round, pages turning on the id too.
    const newest: Lead[] = [];
    for await (const lead of place.open().each(undefined, "newest first")) newest.push(lead);
    expect(newest.map((lead) => lead.id)).toEqual(all.map((lead) => lead.id).reverse());
    const newestSince: Lead[] = [];
    const since = new Date(same[0]?.receivedAt ?? "");
    for await (const lead of place.open().each(since, "newest first")) newestSince.push(lead);
    expect(newestSince).toEqual([...read].reverse());
  }, 60_000);

  it("writes an outcome every replica reads, and carries a lead's extra fields (its source)", async () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    const place = await kind.place();
    const store = place.open();
    const lead = await store.add(enquiry, ["emailjs"]);
    expect(await store.save(emailjsAs(lead, { state: "sent", attempts: 1 }))).toBe(true);
    expect(await place.open().list()).toEqual([emailjsAs(lead, { state: "sent", attempts: 1 })]);
    const withSource: Lead = {
      ...lead,
      source: {
        landing: "/",
        referrer: "https://www.linkedin.com",
        parameters: { utm_source: "newsletter" },
      },
    };
    expect(await store.save(withSource)).toBe(true);
    expect(await place.open().list()).toEqual([withSource]);
  });

  it("keeps the privacy notice its sender was shown, quarantined leads too; a lead without it reads; erase takes it", async () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    const place = await kind.place();
    const clock = fakeClock();
    const store = place.open({ now: clock.now });
    const shown = { version: "2026-11-26", language: "hi", sha256: "5e".repeat(32) };
    const lead = await store.add(enquiry, ["emailjs"], undefined, shown);
    clock.advance(1_000);
    const spam = await store.quarantine({ ...enquiry, name: "spam" }, "honeypot", undefined, shown);
    clock.advance(1_000);
    const unknown = await store.add({ ...enquiry, name: "unknown" }, []);
    const listed = await place.open().list();
    expect(listed.map((each) => [each.id, each.privacyNotice])).toEqual([
      [lead.id, shown],
      [spam.id, shown],
      [unknown.id, undefined],
    ]);
    expect(listed[2]).not.toHaveProperty("privacyNotice");
    // An outcome written keeps it.
    expect(await store.save(emailjsAs(lead, { state: "sent", attempts: 1 }))).toBe(true);
    expect((await place.open().list())[0]?.privacyNotice).toEqual(shown);
    expect(await place.holds(shown.sha256)).toBe(true);
    await store.erase(lead);
    await store.erase(spam);
    expect(await place.holds(shown.sha256)).toBe(false);
    expect((await place.open().list()).map((each) => each.id)).toEqual([unknown.id]);
  });

  it("quarantines outside the cap, at most N per reason, the oldest of that reason going first", async () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    const place = await kind.place();
    const clock = fakeClock();
    const lines: string[] = [];
    const store = place.open({ now: clock.now, maxSpamPerReason: 2, log: (line) => lines.push(line) });
    for (const name of ["h1", "h2", "h3"]) {
      await store.quarantine({ ...enquiry, name }, "honeypot");
      clock.advance(1_000);
    }
    await store.quarantine({ ...enquiry, name: "b1" }, "blocklist");
    const left = await place.open().list();
    expect(left.map((lead) => [lead.enquiry.name, lead.state, lead.reason])).toEqual([
      ["h2", "spam", "honeypot"],
      ["h3", "spam", "honeypot"],
      ["b1", "spam", "blocklist"],
    ]);
    expect(lines).toEqual([expect.stringContaining("the quarantine holds 2 honeypot leads, its limit")]);
  });

  it("never writes an erased lead back, from a replica that still holds it", async () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    const place = await kind.place();
    const server = place.open();
    const lead = await server.add(enquiry, ["emailjs"]);
    const operator = place.open();
    const [found] = await operator.list();
    await operator.erase(found as Lead);
    expect(await server.isErased(lead)).toBe(true);
    expect(await server.save(emailjsAs(lead, { state: "sent", attempts: 1 }))).toBe(false);
    expect(await server.claimNext("emailjs", new Set())).toEqual({ lead: null, dueAt: null });
    expect(await place.open().list()).toEqual([]);
  });

  it("erase names each destination whose delivery began (a send still waiting for its answer included, in any state after), never one not begun; a send that would begin after it never goes out", async () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    const place = await kind.place();
    const server = place.open();
    const both = ["emailjs", "webhook"] as const;
    const inFlight = await server.add({ ...enquiry, name: "in flight" }, both);
    const refused = await server.add({ ...enquiry, name: "refused" }, both);
    const delivered = await server.add({ ...enquiry, name: "delivered" }, ["webhook"]);
    const untried = await server.add({ ...enquiry, name: "untried" }, both);
    const late = await server.add({ ...enquiry, name: "claimed just before" }, ["emailjs"]);
    // The webhook's first send is under way: claimed and begun, no attempt counted yet.
    const claimed = await server.claimNext(
      "webhook",
      new Set([refused.id, delivered.id, untried.id, late.id]),
    );
    expect(claimed.lead?.id).toBe(inFlight.id);
    expect(await server.beginAttempt(claimed.lead as Lead, "webhook")).toBe(true);
    expect((claimed.lead as Lead).destinations.webhook?.attempts).toBe(0);
    const at = refused.receivedAt;
    const record = { lastError: null, nextAttemptAt: at, queuedAt: at };
    await server.saveDelivery(refused, "emailjs", {
      ...record,
      state: "failed",
      attempts: 2,
      lastError: "HTTP 400",
    });
    await server.saveDelivery(delivered, "webhook", { ...record, state: "sent", attempts: 1 });

    const operator = place.open();
    const listed = new Map((await operator.list()).map((lead) => [lead.enquiry.name, lead]));
    const erase = (name: string) => operator.erase(listed.get(name) as Lead);
    expect(await erase("in flight")).toEqual(["webhook"]);
    expect(await erase("refused")).toEqual(["emailjs"]);
    expect(await erase("delivered")).toEqual(["webhook"]);
    expect(await erase("untried")).toEqual([]);
    // Claimed for a send right before the erasure: either the erasure names it (PostgreSQL: the
    // claim's lease), or the send never begins (the folder: beginAttempt finds the erasure).
    const lateClaim = await server.claimNext("emailjs", new Set([inFlight.id, refused.id, untried.id]));
    expect(lateClaim.lead?.id).toBe(late.id);
    const named = await erase("claimed just before");
    const sent = await server.beginAttempt(lateClaim.lead as Lead, "emailjs");
    expect(named.includes("emailjs") || !sent, `named ${named}, send began: ${sent}`).toBe(true);
    expect(await place.open().list()).toEqual([]);
  });

  it("removes leads past retention (quarantined ones sooner), never pending ones", async () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    const place = await kind.place();
    const clock = fakeClock();
    const store = place.open({ now: clock.now });
    const sent = await store.add({ ...enquiry, name: "sent" }, ["emailjs"]);
    await store.save(emailjsAs(sent, { state: "sent", attempts: 1 }));
    await store.add({ ...enquiry, name: "inbox" }, []);
    await store.add({ ...enquiry, name: "pending" }, ["emailjs"]);
    await store.quarantine({ ...enquiry, name: "spam" }, "headless");
    clock.advance(31 * DAY);
    await store.scan();
    expect(await store.prune({ days: 90, spamDays: 30 })).toBe(1);
    clock.advance(60 * DAY);
    await store.scan();
    expect(await store.prune({ days: 90, spamDays: 30 })).toBe(2);
    expect((await place.open().list()).map((lead) => lead.enquiry.name)).toEqual(["pending"]);
  });

  it("lets one deliverer at a time hold the lock; it passes on when released", async () => {
    const place = await kind.place();
    const [first, second] = [place.lock(), place.lock()] as [DelivererLock, DelivererLock];
    expect(await first.acquire()).toBe(true);
    expect(await second.acquire()).toBe(false);
    expect(await first.holds()).toBe(true);
    expect(await second.holds()).toBe(false);
    await first.release();
    expect(await second.acquire()).toBe(true);
    await second.release();
  });
});

describe("the PostgreSQL lead store", () => {
  it("claims a lead for one deliverer at a time: parallel claims never overlap", async () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    const database = await newDatabase();
    const replicas = [1, 2, 3, 4].map(() => createPostgresLeadStore({ database, log: () => {} }));
    const lead = await replicas[0]?.add(enquiry, ["emailjs"]);
    const claims = await Promise.all(replicas.map((replica) => replica.claimNext("emailjs", new Set())));
    expect(claims.map((claim) => claim.lead?.id ?? null).filter((id) => id !== null)).toEqual([lead?.id]);
  });

  it("gives a claimed lead to another deliverer only once its lease has passed", async () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    const database = await newDatabase();
    const crashed = createPostgresLeadStore({ database, leaseSeconds: 2, log: () => {} });
    const next = createPostgresLeadStore({ database, log: () => {} });
    const lead = await crashed.add(enquiry, ["emailjs"]);
    expect((await crashed.claimNext("emailjs", new Set())).lead?.id).toBe(lead.id);
    const leaseEnds = Date.now() + 2_000;
    expect((await next.claimNext("emailjs", new Set())).lead).toBeNull();
    await expect
      .poll(async () => (await next.claimNext("emailjs", new Set())).lead, { timeout: 5_000 })
      .toMatchObject({ id: lead.id, state: "pending" });
    expect(Date.now()).toBeGreaterThanOrEqual(leaseEnds - 100);
    // An outcome written clears the lease: the lead is settled, whoever claimed it.
    expect(await next.save(emailjsAs(lead, { state: "sent", attempts: 1 }))).toBe(true);
    expect(await next.claimNext("emailjs", new Set())).toEqual({ lead: null, dueAt: null });
  });

  it("frees the deliverer lock the moment its connection is cut: another replica takes over", async () => {
    const database = await newDatabase();
    const other = await newDatabaseOn(database);
    const holder = createPostgresDelivererLock(database);
    const waiting = createPostgresDelivererLock(other);
    expect(await holder.acquire()).toBe(true);
    expect(await waiting.acquire()).toBe(false);
    await postgres.sql(
      `SELECT pg_terminate_backend(l.pid) FROM pg_locks l WHERE l.locktype = 'advisory' AND l.objsubid = 1 AND l.granted`,
    );
    await expect.poll(() => waiting.acquire(), { timeout: 5_000 }).toBe(true);
    expect(await holder.holds()).toBe(false);
    await waiting.release();
  });

  it("delivers a stream of enquiries stored on two replicas exactly once, with two deliverers on one database", async () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    const database = await newDatabase();
    const sent: string[] = [];
    const mail: LeadMail = {
      kind: "send",
      async send(lead) {
        sent.push(lead.enquiry.name);
        // EmailJS answers on a later turn of the event loop, as a network answer does.
        await new Promise((resolve) => setImmediate(resolve));
        return { ok: true };
      },
    };
    const replicas = [database, await newDatabaseOn(database)].map((db) => startReplica(db, mail, 100));
    const names = Array.from({ length: 24 }, (_, index) => `Visitor ${index}`);
    for (const [index, name] of names.entries()) {
      const replica = replicas[index % 2] as { store: LeadStore; delivery: Delivery };
      await replica.store.add({ ...enquiry, name }, ["emailjs"]);
      replica.delivery.wake();
    }
    const reader = createPostgresLeadStore({ database, log: () => {} });
    await expect.poll(async () => (await reader.counts()).sent, { timeout: 15_000 }).toBe(names.length);
    expect([...sent].sort()).toEqual([...names].sort());
  }, 90_000);
});

describe("three deliverers on one database, with sends slower than a scan", () => {
  it("sends every lead once when the deliverer loses its lock in the middle of a send", async () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    const database = await newDatabase();
    const sent: string[] = [];
    const takeovers: number[] = [];
    const mail: LeadMail = {
      kind: "send",
      async send(lead) {
        sent.push(lead.enquiry.name);
        const count = sent.length;
        if (count % 4 === 1 && count < 12) {
          // The lock's connection is cut while EmailJS has not answered: another replica takes
          // over and sends on while this send is still in flight, past many scans.
          await postgres.sql(
            `SELECT pg_terminate_backend(l.pid) FROM pg_locks l WHERE l.locktype = 'advisory' AND l.objsubid = 1 AND l.granted`,
          );
          await expect.poll(() => sent.length, { timeout: 20_000 }).toBeGreaterThan(count);
          takeovers.push(count);
        }
        await new Promise((resolve) => setImmediate(resolve));
        return { ok: true };
      },
    };
    const databases = [database, await newDatabaseOn(database), await newDatabaseOn(database)];
    const stores = databases.map((db) => startReplica(db, mail, 50).store);
    const names = Array.from({ length: 12 }, (_, index) => `Visitor ${index}`);
    for (const [index, name] of names.entries()) {
      await (stores[index % 3] as LeadStore).add({ ...enquiry, name }, ["emailjs"]);
    }
    const reader = createPostgresLeadStore({ database, log: () => {} });
    await expect.poll(async () => (await reader.counts()).sent, { timeout: 60_000 }).toBe(names.length);
    expect(takeovers).toEqual([1, 5, 9]);
    expect([...sent].sort()).toEqual([...names].sort());
  }, 90_000);
});

describe("importing a data folder into PostgreSQL", () => {
  it("imports every lead once, in its state, skips erased ones, marks the folder, and doubles nothing when run again", async () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    const database = await newDatabase();
    const folder = await newFolder();
    const files = createFolderLeadStore({ folder, log: () => {} });
    const shown = { version: "2026-11-26", language: "en", sha256: "a1".repeat(32) };
    const pending = await files.add(enquiry, ["emailjs"], undefined, shown);
    const sent = await files.add({ ...enquiry, name: "sent" }, ["emailjs"]);
    await files.save(emailjsAs(sent, { state: "sent", attempts: 1 }));
    await files.quarantine({ ...enquiry, name: "spam" }, "honeypot");
    const erased = await files.add({ ...enquiry, name: "erased" }, []);
    await files.erase(erased);
    // An erasure recorded while the lead's file was still there (an erase cut short).
    const late = newLead({
      id: crypto.randomUUID(),
      enquiry: { ...enquiry, name: "late" },
      destinations: [],
      at: new Date(),
    });
    await writeFile(join(folder, leadFileName(late)), JSON.stringify(late));
    await mkdir(erasedFolder(folder), { recursive: true });
    await writeFile(join(erasedFolder(folder), late.id), "");

    const lines: string[] = [];
    expect(await importLeadFolder({ database, folder, log: (line) => lines.push(line) })).toBe(3);
    expect(lines).toEqual([expect.stringMatching(/^lead store: imported 3 leads from .* into the database/)]);
    const store = createPostgresLeadStore({ database, log: () => {} });
    expect((await store.list()).map((lead) => [lead.enquiry.name, lead.state])).toEqual([
      ["Asha Rao", "pending"],
      ["sent", "sent"],
      ["spam", "spam"],
    ]);
    expect((await store.list())[0]).toEqual(pending);
    expect(await readdir(folder)).toContain(IMPORT_MARKER);
    expect(await importLeadFolder({ database, folder, log: (line) => lines.push(line) })).toBeNull();

    // With the marker deleted, the import runs again and finds every lead already there.
    await rm(join(folder, IMPORT_MARKER));
    expect(await importLeadFolder({ database, folder, log: () => {} })).toBe(0);
    expect(await store.list()).toHaveLength(3);
    expect(await store.isErased(late)).toBe(true);
  });
});

/** A second replica's connection to the same database as `database`. */
/** A replica on `db`: its store and its delivery, started (stopped after the test). */
function startReplica(db: Database, mail: LeadMail, scanMs: number) {
  const store = createPostgresLeadStore({ database: db, log: () => {} });
  const delivery = createDelivery({
    store,
    routes: { emailjs: mail.send },
    lock: createPostgresDelivererLock(db),
    intervalMs: 0,
    retentionDays: 90,
    spamRetentionDays: 30,
    heartbeatMs: 50,
    scanMs,
    log: () => {},
  });
  cleanups.add(`the delivery on ${databaseNames.get(db)} stops (delivery.stop)`, () => delivery.stop());
  delivery.start();
  return { store, delivery };
}

async function newDatabaseOn(database: Database): Promise<Database> {
  const name = (await database.query<{ name: string }>("SELECT current_database() AS name")).rows[0]?.name;
  const url = postgres.url(name);
  const replica = createDatabase({ url, poolSize: 4, migrations: readMigrations(), log: () => {} });
  replica.start();
  await replica.ready();
  named(replica, `pool ${databaseNames.size + 1} on the same database`);
  return replica;
}
