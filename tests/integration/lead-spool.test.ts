import { randomUUID } from "node:crypto";
import { mkdtemp, readdir, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, type Database } from "~/db/database.server";
import { readMigrations } from "~/db/migrations.server";
import type { DeliveryResult } from "~/destinations/destination";
import type { Enquiry } from "~/lead-parts/enquiry";
import { type Lead, leadFileName, newLead } from "~/leads/lead";
import { createLeadService } from "~/leads/lead-service.server";
import { eraseLeadRow } from "~/leads/postgres/erasure.server";
import { isLeadOwnError } from "~/leads/postgres/insert.server";
import { createPostgresLeadStore } from "~/leads/postgres/store.server";
import { createLeadSpool, SpoolFullError, spoolFolder, UNREADABLE_SUFFIX } from "~/leads/spool.server";
import { openMigratedDatabase } from "../support/migrated-database";
import { startPostgres, type TestPostgres } from "../support/postgres";

// The spool (docs/decisions/030-lead-spool.md): what the database does not take in time is kept
// as a file in the data folder and moved into the database by its id, once, whatever happened
// between; only when the spool cannot be written is a lead sent directly, to every destination.

let postgres: TestPostgres;
beforeAll(async () => {
  postgres = await startPostgres("pg-lead-spool");
}, 60_000);
afterAll(async () => {
  await postgres?.dispose();
}, 60_000);

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const enquiry = (name: string): Enquiry => ({
  name,
  email: "asha@example.in",
  countryCode: "91",
  phoneNumber: "9876543210",
  message: "A booking app for our clinics.",
});

const leadOf = (name: string, at = new Date()): Lead =>
  newLead({ id: randomUUID(), enquiry: enquiry(name), destinations: ["emailjs", "webhook"], at });

async function dataFolder(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "lead-spool-"));
  cleanups.push(() => rm(root, { recursive: true, force: true }));
  return root;
}

async function newDatabase(): Promise<Database> {
  const database = await openMigratedDatabase(await postgres.createDatabase());
  cleanups.push(() => database.stop());
  return database;
}

/** The names of the leads in the database, oldest first, with the destinations each goes to. */
async function rowsOf(database: Database) {
  const { rows } = await database.query<{ name: string; deliveries: number }>(
    `SELECT l.enquiry->>'name' AS name, (SELECT count(*)::int FROM lead_deliveries d WHERE d.lead_id = l.id) AS deliveries
     FROM leads l ORDER BY l.received_at, l.id`,
  );
  return rows;
}

const importInto = (database: Database) => {
  const store = createPostgresLeadStore({ database, log: () => {} });
  return (lead: Lead) => store.importLead(lead);
};

describe("the lead spool", () => {
  it("keeps a lead as its own file, fsync'd, and moves it into the database with its destinations, once", async () => {
    const root = await dataFolder();
    const spool = createLeadSpool({ folder: spoolFolder(root), log: () => {} });
    const lead = leadOf("Asha Rao");
    await spool.put(lead);
    expect(await readdir(spool.folder)).toEqual([leadFileName(lead)]);
    expect(JSON.parse(await readFile(join(spool.folder, leadFileName(lead)), "utf8"))).toMatchObject({
      id: lead.id,
      enquiry: lead.enquiry,
    });
    expect(spool.holds(lead.id)).toBe(true);
    expect(await spool.count()).toBe(1);

    const database = await newDatabase();
    const round = await spool.drain(importInto(database), isLeadOwnError);
    expect(round).toEqual({ moved: 1, waiting: 0 });
    expect(await rowsOf(database)).toEqual([{ name: "Asha Rao", deliveries: 1 }]);
    expect(await readdir(spool.folder)).toEqual([]);
    expect(spool.holds(lead.id)).toBe(false);
  });

  it("never stores a lead twice: its late insert landed, or a crash came between its insert and its file's removal", async () => {
    const root = await dataFolder();
    const spool = createLeadSpool({ folder: spoolFolder(root), log: () => {} });
    const database = await newDatabase();
    const store = createPostgresLeadStore({ database, log: () => {} });
    const late = leadOf("Late insert");
    const crashed = leadOf("Crashed drain");
    await spool.put(late);
    await spool.put(crashed);
    // The enquiry's own insert, which went on after the visitor's answer, lands after all…
    await store.addLead(late);
    // …and a drain stopped by a crash after its insert, before its unlink, is run again.
    await store.importLead(crashed);
    expect(await spool.drain(importInto(database), isLeadOwnError)).toEqual({ moved: 2, waiting: 0 });
    expect((await rowsOf(database)).map((row) => row.name).sort()).toEqual(["Crashed drain", "Late insert"]);
    // An insert that comes later still is no second lead either.
    await store.addLead(late);
    expect(await rowsOf(database)).toHaveLength(2);
  });

  it("never brings back a lead erased while it waited, and leaves the others of a round alone when one file is no lead", async () => {
    const root = await dataFolder();
    const lines: string[] = [];
    const spool = createLeadSpool({ folder: spoolFolder(root), log: (line) => lines.push(line) });
    const database = await newDatabase();
    const erased = leadOf("Erased meanwhile", new Date("2026-11-01T10:00:00Z"));
    const kept = leadOf("Kept", new Date("2026-11-01T10:00:02Z"));
    await spool.put(erased);
    await spool.put(kept);
    await eraseLeadRow(database, erased.id, new Date());
    // A file with a lead's name that holds no lead (a torn copy, a hand edit).
    const bad = `${String(Date.parse("2026-11-01T10:00:01Z")).padStart(13, "0")}-${randomUUID()}.json`;
    await writeFile(join(spool.folder, bad), "{ not a lead");
    // A temporary file a crash left a minute ago (no visitor was answered from it).
    const torn = join(spool.folder, ".tmp-left-by-a-crash");
    await writeFile(torn, "half a lead");
    await utimes(torn, new Date(Date.now() - 120_000), new Date(Date.now() - 120_000));

    expect(await spool.drain(importInto(database), isLeadOwnError)).toEqual({ moved: 2, waiting: 0 });
    expect(await rowsOf(database)).toEqual([{ name: "Kept", deliveries: 1 }]);
    expect(await readdir(spool.folder)).toEqual([`${bad}${UNREADABLE_SUFFIX}`]);
    expect(lines).toEqual([
      expect.stringMatching(
        new RegExp(
          `^lead spool: .*${bad} is not a lead \\(.*\\); renamed ${bad}${UNREADABLE_SUFFIX}, it is not moved into the database: read it, then delete it$`,
        ),
      ),
    ]);
    expect(await spool.count()).toBe(0);
  });

  it("holds a lead once by its id: the same enquiry spooled again writes nothing", async () => {
    const root = await dataFolder();
    const spool = createLeadSpool({ folder: spoolFolder(root), log: () => {} });
    const first = leadOf("Asha Rao", new Date("2026-11-01T10:00:00Z"));
    expect(await spool.put(first)).toBe(true);
    expect(await spool.put({ ...first, receivedAt: "2026-11-01T10:00:05.000Z" })).toBe(false);
    expect(await readdir(spool.folder)).toEqual([leadFileName(first)]);
  });

  it("holds exactly its limit when many leads are spooled at once", async () => {
    const root = await dataFolder();
    const spool = createLeadSpool({ folder: spoolFolder(root), maxLeads: 10, log: () => {} });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 40 }, (_, index) => spool.put(leadOf(`At once ${index}`))),
    );
    expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(10);
    const refused = outcomes.filter((outcome) => outcome.status === "rejected");
    expect(refused).toHaveLength(30);
    for (const outcome of refused) expect(outcome.reason).toBeInstanceOf(SpoolFullError);
    expect(await readdir(spool.folder)).toHaveLength(10);
    expect(await spool.count()).toBe(10);
  });

  it("stops a round when the database refuses, the leads left waiting, and is bounded in size", async () => {
    const root = await dataFolder();
    const spool = createLeadSpool({ folder: spoolFolder(root), maxLeads: 2, log: () => {} });
    await spool.put(leadOf("One"));
    await spool.put(leadOf("Two"));
    await expect(spool.put(leadOf("Three"))).rejects.toBeInstanceOf(SpoolFullError);
    const refused = Object.assign(new Error("canceling statement due to lock timeout"), { code: "55P03" });
    const round = await spool.drain(async () => {
      throw refused;
    }, isLeadOwnError);
    expect(round).toEqual({ moved: 0, waiting: 2, error: refused });
    expect(await spool.count()).toBe(2);
  });
});

describe("an enquiry's one identity (docs/decisions/045-one-identity-per-enquiry.md)", () => {
  const config = (root: string, secret: string | undefined) => ({
    ENQUIRY_STORE_DIR: root,
    ENQUIRY_SEND_INTERVAL_MS: 50,
    ENQUIRY_RETENTION_DAYS: 90,
    ENQUIRY_SPAM_RETENTION_DAYS: 30,
    NOTICE_SECRET: secret,
  });
  const SECRET = "one-secret-for-both-servers-0123456789";

  /** A service on `database` (or the data folder alone), whose direct senders record the ids they take. */
  function serviceWith(root: string, database: Database | null, secret: string | undefined = SECRET) {
    const sent: string[] = [];
    const lines: string[] = [];
    const ok = async (lead: Lead): Promise<DeliveryResult> => {
      sent.push(lead.id);
      return { ok: true };
    };
    const service = createLeadService(
      config(root, secret),
      { routes: { emailjs: async () => ({ ok: true }) }, direct: { emailjs: ok } },
      database,
      (line) => lines.push(line),
    );
    cleanups.push(() => service.stop());
    return { service, sent, lines };
  }

  it("two servers with one NOTICE_SECRET give the same enquiry one id, which the database stores once", async () => {
    const database = await newDatabase();
    const a = serviceWith(await dataFolder(), database);
    const b = serviceWith(await dataFolder(), database);
    const first = await a.service.keep(enquiry("Asha Rao"));
    const again = await b.service.keep(enquiry("Asha Rao"));
    expect(first).toEqual({ kind: "stored", id: expect.any(String), duplicate: false });
    expect(again).toEqual({ kind: "stored", id: first.kind === "stored" ? first.id : "", duplicate: true });
    expect(await rowsOf(database)).toEqual([{ name: "Asha Rao", deliveries: 0 }]);
    // Another enquiry, or another secret, is another id.
    const other = await a.service.keep(enquiry("Ravi Iyer"));
    const elsewhere = await serviceWith(
      await dataFolder(),
      database,
      "another-secret-0123456789abcdef",
    ).service.keep(enquiry("Asha Rao"));
    expect(
      new Set([first, other, elsewhere].map((kept) => (kept.kind === "stored" ? kept.id : ""))),
    ).toHaveProperty("size", 3);
  });

  it("an enquiry whose lead was erased is kept again as a new lead, under a new id", async () => {
    const database = await newDatabase();
    const { service } = serviceWith(await dataFolder(), database);
    const first = await service.keep(enquiry("Asha Rao"));
    if (first.kind !== "stored") throw new Error(JSON.stringify(first));
    await eraseLeadRow(database, first.id, new Date());
    const again = await service.keep(enquiry("Asha Rao"));
    expect(again).toEqual({ kind: "stored", id: expect.any(String), duplicate: false });
    expect(again.kind === "stored" && again.id).not.toBe(first.id);
    expect(await rowsOf(database)).toHaveLength(1);
  });

  it("without a database, the data folder keeps the same enquiry once", async () => {
    const root = await dataFolder();
    const { service } = serviceWith(root, null);
    const first = await service.keep(enquiry("Asha Rao"));
    const again = await service.keep(enquiry("Asha Rao"));
    expect(again).toEqual({ ...first, duplicate: true });
    expect(await readdir(join(root, "leads"))).toHaveLength(1);
  });

  it("an insert the visitor stopped waiting for is rolled back when it comes: a lead sent directly is never stored and sent again", async () => {
    const url = await postgres.createDatabase();
    const database = createDatabase({ url, poolSize: 1, migrations: readMigrations(), log: () => {} });
    database.start();
    await database.ready();
    cleanups.push(() => database.stop());
    const root = await dataFolder();
    await writeFile(spoolFolder(root), "a file where the spool's folder must be");
    const { service, sent } = serviceWith(root, database);
    postgres.pause();
    let kept: Awaited<ReturnType<typeof service.keep>>;
    try {
      kept = await service.keep(enquiry("Asha Rao"));
    } finally {
      postgres.resume();
    }
    if (kept.kind !== "sent") throw new Error(`not sent directly: ${JSON.stringify(kept)}`);
    expect(sent).toEqual([kept.id]);
    // The pool's one connection is free again once the given-up insert has its answer.
    await database.query("SELECT 1");
    expect(await rowsOf(database)).toEqual([]);
  });
});

describe("the lead service with a database that does not answer", () => {
  /** The service on a database that never becomes ready, with direct senders that record what they get. */
  function serviceOn(root: string, answers: { emailjs: DeliveryResult; webhook: DeliveryResult }) {
    const database = createDatabase({
      url: "postgres://site@127.0.0.1:9/site",
      poolSize: 1,
      migrations: [],
      log: () => {},
    });
    const sent: string[] = [];
    const lines: string[] = [];
    const service = createLeadService(
      {
        ENQUIRY_STORE_DIR: root,
        ENQUIRY_SEND_INTERVAL_MS: 50,
        ENQUIRY_RETENTION_DAYS: 90,
        ENQUIRY_SPAM_RETENTION_DAYS: 30,
        NOTICE_SECRET: undefined,
      },
      {
        routes: { emailjs: async () => answers.emailjs, webhook: async () => answers.webhook },
        direct: {
          emailjs: async (lead) => {
            sent.push(`emailjs ${lead.id}`);
            return answers.emailjs;
          },
          webhook: async (lead) => {
            sent.push(`webhook ${lead.id}`);
            return answers.webhook;
          },
        },
      },
      database,
      (line) => lines.push(line),
    );
    cleanups.push(() => service.stop());
    return { service, sent, lines };
  }
  const ok: DeliveryResult = { ok: true };
  const down: DeliveryResult = { ok: false, retry: true, error: { status: 503, cause: "HTTP 503" } };

  it("spools the enquiry, which it still keeps, and counts it in its health", async () => {
    const root = await dataFolder();
    const { service, sent, lines } = serviceOn(root, { emailjs: ok, webhook: ok });
    const kept = await service.keep(enquiry("Asha Rao"));
    expect(kept).toEqual({ kind: "spooled", id: expect.any(String), duplicate: false });
    expect(sent).toEqual([]);
    expect(await service.stillKeeps(kept.kind === "spooled" ? kept.id : "")).toBe(true);
    expect((await service.health()).leads.spooled).toBe(1);
    expect(lines).toEqual([
      `lead store: the database did not take an enquiry (the database is unreachable (starting)); enquiries wait in the spool ${spoolFolder(root)} and move into the database when it answers (npm run leads -- --health counts them)`,
    ]);
  });

  it("with the spool unwritable too, sends the lead directly to EmailJS and the webhook, logs it by id and counts it", async () => {
    const root = await dataFolder();
    await writeFile(spoolFolder(root), "a file where the spool's folder must be");
    const { service, sent, lines } = serviceOn(root, { emailjs: ok, webhook: down });
    const kept = await service.keep(enquiry("Asha Rao"));
    if (kept.kind !== "sent") throw new Error(`not sent directly: ${JSON.stringify(kept)}`);
    expect(kept.to).toEqual(["emailjs"]);
    expect(sent).toEqual([`emailjs ${kept.id}`, `webhook ${kept.id}`]);
    expect(service.directlySent()).toBe(1);
    expect(lines).toEqual([
      expect.stringMatching(
        new RegExp(
          `^lead spool: cannot write ${spoolFolder(root)} \\(.*\\); enquiries the database does not take are sent directly to each destination and kept nowhere`,
        ),
      ),
      expect.stringMatching(
        new RegExp(
          `^lead store: lead ${kept.id} could not be kept \\(the database did not take it \\(.*\\) and the spool could not be written \\(.*\\)\\); sent directly to emailjs, not to webhook: it is in no store and not in npm run leads$`,
        ),
      ),
    ]);
    expect(lines.join("\n")).not.toContain("Asha");
    // Nowhere took the next one: nothing kept, nothing counted.
    const { service: none } = serviceOn(root, { emailjs: down, webhook: down });
    expect(await none.keep(enquiry("Ravi Iyer"))).toEqual({ kind: "unkept", reachable: true });
    expect(none.directlySent()).toBe(0);
  });
});
