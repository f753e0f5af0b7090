import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { createDatabase, type Database } from "~/db/database.server";
import { readMigrations } from "~/db/migrations.server";
import { createEnquiryLimits, type EnquiryLimits, takeEnquiryUnits } from "~/enquiry/limits.server";
import { NOTICE_PARAMETER } from "~/enquiry/notices";
import { createPostgresSubmissions, type PostgresSubmissions } from "~/enquiry/postgres-submissions.server";
import { createSentNotices, NOTICE_TTL_MS } from "~/enquiry/sent-notice.server";
import { databaseLimitStore } from "~/http/database-limits.server";
import { randomReference } from "~/lead-parts/reference";
import type { Beacon } from "~/vitals/metrics";
import { createPostgresVitalsStore, readPostgresRecords } from "~/vitals/postgres-store.server";
import { RETENTION_MS, recordsOf } from "~/vitals/store.server";
import { summarise } from "~/vitals/summary";
import { startPostgres, TEST_DATABASE_PASSWORD, type TestPostgres } from "../support/postgres";

// Two replicas are two Database instances (two pools) on one PostgreSQL database, as two
// servers with the same DATABASE_URL would be.

const secret = "a-shared-secret-of-at-least-32-characters";
let postgres: TestPostgres;
beforeAll(async () => {
  postgres = await startPostgres("pg-unit-replicated");
}, 60_000);
afterAll(async () => {
  await postgres?.dispose();
}, 60_000);

async function replicas(
  count: number,
  lines: string[] = [],
): Promise<{ url: string; databases: Database[] }> {
  const url = await postgres.createDatabase();
  const databases = Array.from({ length: count }, () =>
    createDatabase({ url, poolSize: 3, migrations: readMigrations(), log: (line) => lines.push(line) }),
  );
  for (const database of databases) database.start();
  await Promise.all(databases.map((database) => database.ready()));
  return { url, databases };
}

const stopAll = (databases: Database[]) => Promise.all(databases.map((database) => database.stop()));
const tokenOf = (landingUrl: string) =>
  new URL(landingUrl, "http://localhost").searchParams.get(NOTICE_PARAMETER) ?? "";
const nameOf = (url: string) => new URL(url).pathname.slice(1);

/**
 * Runs `work` with the clock stopped: no timer fires meanwhile, so an answer that waited on any
 * time limit (a connection's 3 s, a claim's 1 s, a count's 3 s) never comes. A loaded machine
 * makes it slower, never failed: only a deadline on the real clock, far past any of those
 * limits, ends the wait (AbortSignal.timeout keeps Node's own timer, which vitest does not fake).
 */
async function withClockStopped<T>(work: () => Promise<T>): Promise<T> {
  const deadline = AbortSignal.timeout(15_000);
  let giveUp = () => {};
  const late = new Promise<never>((_, reject) => {
    giveUp = () => reject(new Error("no answer with the clock stopped: it waits on a timer"));
    deadline.addEventListener("abort", giveUp, { once: true });
  });
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval"] });
  try {
    return await Promise.race([work(), late]);
  } finally {
    vi.useRealTimers();
    deadline.removeEventListener("abort", giveUp);
  }
}

describe("success notices with DATABASE_URL", () => {
  test("a landing URL read six times through three replicas shows its notice once", async () => {
    const { databases } = await replicas(3);
    const notices = databases.map((database) =>
      createSentNotices({ secret, storeDir: "/nonexistent", database }),
    );
    const token = tokenOf(notices[0]?.landingUrl(randomReference()) ?? "");
    const shown = await Promise.all(
      [0, 1, 2, 0, 1, 2].map((replica) => notices[replica]?.redeem(token) ?? null),
    );
    expect(shown.filter((notice) => notice !== null)).toHaveLength(1);
    // Sequentially too, once the first claim is in: every replica says no.
    for (const replica of notices) expect(await replica.redeem(token)).toBeNull();
    await stopAll(databases);
  });

  test("expired claims are swept; unexpired ones stay", async () => {
    const { url, databases } = await replicas(1);
    const [database] = databases as [Database];
    let clock = Date.now();
    const notices = createSentNotices({ secret, storeDir: "/nonexistent", database, now: () => clock });
    const old = tokenOf(notices.landingUrl(randomReference()));
    expect(await notices.redeem(old)).not.toBeNull();
    clock += NOTICE_TTL_MS + 2 * 60_000;
    // A claim's expiry is the token's, so this one is past due by a minute and more.
    await postgres.sql("UPDATE notice_claims SET expires_at = now() - interval '2 minutes'", [], nameOf(url));
    const fresh = tokenOf(notices.landingUrl(randomReference()));
    expect(await notices.redeem(fresh)).not.toBeNull();
    await notices.sweep();
    const left = await postgres.sql<{ id: string }>("SELECT id FROM notice_claims", [], nameOf(url));
    expect(left.map((row) => row.id)).toEqual([fresh.split(".")[0]]);
    await stopAll(databases);
  });

  test("with the database unreachable the notice is shown, once per replica, without waiting", async () => {
    const lines: string[] = [];
    const database = createDatabase({
      url: postgres.url().replace(encodeURIComponent(TEST_DATABASE_PASSWORD), "wrong"),
      poolSize: 1,
      migrations: readMigrations(),
      log: (line) => lines.push(line),
    });
    database.start();
    await expect.poll(() => database.state().status).toBe("unreachable");
    const notices = createSentNotices({
      secret,
      storeDir: "/nonexistent",
      database,
      log: (line) => lines.push(line),
    });
    const token = tokenOf(notices.landingUrl(randomReference()));
    const shown = await withClockStopped(async () => [
      await notices.redeem(token),
      await notices.redeem(token),
    ]);
    expect(shown[0]).not.toBeNull();
    expect(shown[1]).toBeNull();
    expect(lines.filter((line) => line.startsWith("notices:"))).toEqual([]);
    await database.stop();
  });
});

const beacon: Beacon = {
  route: "/",
  device: "mobile",
  navigationType: "navigate",
  cores: null,
  memoryGb: null,
  metrics: [
    { name: "LCP", value: 2100, rating: "good" },
    { name: "INP", value: 180, rating: "good" },
  ],
};

describe("field metrics with DATABASE_URL", () => {
  test("a batch of more rows than one statement can bind is written whole", async () => {
    const { databases } = await replicas(1);
    const store = createPostgresVitalsStore(databases[0] as Database);
    const now = new Date();
    // 7,000 rows of 10 values each: past PostgreSQL's 65,535 parameters for one statement.
    const batch = Array.from({ length: 3_500 }, () => recordsOf(beacon, now)).flat();
    expect(await store.append(batch)).toBe(true);
    const records = await readPostgresRecords(
      databases[0] as Database,
      new Date(now.getTime() - RETENTION_MS),
    );
    expect(records).toHaveLength(7_000);
    await stopAll(databases);
  });

  test("two replicas' visitors are summarised together, with the device's capacity when reported", async () => {
    const { databases } = await replicas(2);
    const [a, b] = databases.map((database) => createPostgresVitalsStore(database)) as [
      ReturnType<typeof createPostgresVitalsStore>,
      ReturnType<typeof createPostgresVitalsStore>,
    ];
    const now = new Date();
    expect(await a.append(recordsOf(beacon, now))).toBe(true);
    expect(
      await b.append(
        recordsOf({ ...beacon, metrics: [{ name: "LCP", value: 3900, rating: "good" }] }, now).map(
          (record) => ({ ...record, cores: 4 as const, memoryGb: 2 as const }),
        ),
      ),
    ).toBe(true);
    const records = await readPostgresRecords(
      databases[0] as Database,
      new Date(now.getTime() - RETENTION_MS),
    );
    expect(records).toHaveLength(3);
    expect(records.find((record) => record.value === 3900)).toMatchObject({
      metric: "LCP",
      rating: "needs-improvement",
      cores: 4,
      memoryGb: 2,
    });
    const summary = summarise(records, new Date(now.getTime() + 60 * 60 * 1000));
    expect(summary.samples).toBe(3);
    expect(summary.groups[0]?.metrics.find((metric) => metric.metric === "LCP")).toMatchObject({
      p75: 3900,
      samples: 2,
    });
    await stopAll(databases);
  });

  test("rows older than 28 days are deleted by the hourly prune", async () => {
    const { url, databases } = await replicas(1);
    const store = createPostgresVitalsStore(databases[0] as Database);
    const now = Date.now();
    await store.append(recordsOf(beacon, new Date(now - RETENTION_MS - 60 * 60 * 1000)));
    await store.append(recordsOf(beacon, new Date(now - RETENTION_MS + 2 * 60 * 60 * 1000)));
    await store.prune();
    const left = await postgres.sql<{ count: string }>("SELECT count(*) FROM vitals", [], nameOf(url));
    expect(left[0]?.count).toBe("2");
    await stopAll(databases);
  });

  test("a beacon is dropped, not waited on, while the database is down", async () => {
    const lines: string[] = [];
    const { databases } = await replicas(1, lines);
    const database = databases[0] as Database;
    const store = createPostgresVitalsStore(database, (line) => lines.push(line));
    await postgres.stop();
    try {
      await database.query("SELECT 1").catch(() => {});
      expect(await withClockStopped(() => store.append(recordsOf(beacon, new Date())))).toBe(false);
      expect(lines.filter((line) => line.startsWith("vitals:"))).toEqual([]);
    } finally {
      await postgres.start();
    }
    await stopAll(databases);
  }, 30_000);
});

const LIMIT_ENV = {
  ENQUIRY_RATE_LIMIT: 5,
  ENQUIRY_RATE_WINDOW: 600,
  ENQUIRY_FLOOD_LIMIT: 8,
  ENQUIRY_THROTTLE: 0,
};

describe("limits with DATABASE_URL", () => {
  test("one client's budget holds across two replicas, for simultaneous enquiries too", async () => {
    const { databases } = await replicas(2);
    const limits = databases.map((database) =>
      createEnquiryLimits({ ...LIMIT_ENV, ENQUIRY_FLOOD_LIMIT: 0 }, databaseLimitStore(database)),
    );
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        takeEnquiryUnits(limits[index % 2] as EnquiryLimits, "203.0.113.9", { throttle: true }),
      ),
    );
    expect(answers.filter((answer) => answer.allowed)).toHaveLength(5);
    const refused = answers.find((answer) => !answer.allowed);
    expect(refused).toMatchObject({ allowed: false, by: "per-client budget" });
    expect(refused && !refused.allowed && refused.retryAfterSeconds).toBeGreaterThan(590);
    // Another client is not refused for it.
    expect(
      (await takeEnquiryUnits(limits[1] as EnquiryLimits, "198.51.100.7", { throttle: true })).allowed,
    ).toBe(true);
    await stopAll(databases);
  });

  test("the flood level holds for everyone together across replicas; a unit given back is taken again", async () => {
    const { databases } = await replicas(2);
    const limits = databases.map((database) => createEnquiryLimits(LIMIT_ENV, databaseLimitStore(database)));
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        takeEnquiryUnits(limits[index % 2] as EnquiryLimits, null, { throttle: true }),
      ),
    );
    const allowed = answers.filter((answer) => answer.allowed);
    expect(allowed).toHaveLength(8);
    expect(answers.find((answer) => !answer.allowed)).toMatchObject({ by: "flood level" });
    const first = allowed[0];
    if (first?.allowed) await first.giveBack();
    expect((await takeEnquiryUnits(limits[1] as EnquiryLimits, null, { throttle: true })).allowed).toBe(true);
    expect((await takeEnquiryUnits(limits[0] as EnquiryLimits, null, { throttle: true })).allowed).toBe(
      false,
    );
    await stopAll(databases);
  });

  test("the throttle lets one of three simultaneous enquiries through across replicas, then answers Retry-After", async () => {
    const { databases } = await replicas(3);
    const limits = databases.map((database) =>
      createEnquiryLimits({ ...LIMIT_ENV, ENQUIRY_THROTTLE: 60 }, databaseLimitStore(database)),
    );
    const answers = await Promise.all(
      limits.map((replica) => takeEnquiryUnits(replica, "203.0.113.50", { throttle: true })),
    );
    expect(answers.filter((answer) => answer.allowed)).toHaveLength(1);
    const refused = answers.find((answer) => !answer.allowed);
    expect(refused).toMatchObject({ allowed: false, by: "throttle" });
    expect(refused && !refused.allowed && refused.retryAfterSeconds).toBeGreaterThan(55);
    await stopAll(databases);
  });

  test("with the database down, each replica counts in its own memory at once", async () => {
    const { databases } = await replicas(1);
    const database = databases[0] as Database;
    const limits = createEnquiryLimits(LIMIT_ENV, databaseLimitStore(database));
    await postgres.stop();
    try {
      await database.query("SELECT 1").catch(() => {});
      expect(database.state().status).toBe("unreachable");
      const answers = await withClockStopped(async () => {
        const taken = [];
        for (let index = 0; index < 7; index += 1) {
          taken.push(await takeEnquiryUnits(limits, "203.0.113.77", { throttle: true }));
        }
        return taken;
      });
      expect(answers.filter((answer) => answer.allowed)).toHaveLength(5);
    } finally {
      await postgres.start();
    }
    await stopAll(databases);
  }, 30_000);
});

describe("double submits with DATABASE_URL", () => {
  const kept = (result: { kind: string }) => result.kind === "stored";

  test("the same enquiry on two replicas at once runs once; the other replica answers with its outcome", async () => {
    const { databases } = await replicas(2);
    const queries = databases.map((database) => vi.spyOn(database, "query"));
    const replicated = databases.map((database) => createPostgresSubmissions(database));
    await expect.poll(() => replicated.every((replica) => replica.salt() !== null)).toBe(true);
    expect(replicated[0]?.salt()).toBe(replicated[1]?.salt());
    /** How often replica `index` read the claim of a submission another replica holds. */
    const claimReads = (index: number) =>
      queries[index]?.mock.calls.filter(([text]) => text.startsWith("SELECT outcome")).length ?? 0;
    let runs = 0;
    // The replica that claimed the enquiry runs it until the other has found the claim running.
    const taskOf = (index: number) => async () => {
      runs += 1;
      await expect.poll(() => claimReads(1 - index)).toBeGreaterThan(0);
      return { kind: "stored", leadId: "lead-1" };
    };
    const outcomes = await Promise.all(
      replicated.map((replica, index) =>
        replica.run({
          fingerprint: "f1",
          task: taskOf(index),
          keep: kept,
          stillHolds: async () => true,
          ttlMs: 60_000,
        }),
      ),
    );
    expect(runs).toBe(1);
    expect(outcomes.map((outcome) => outcome?.duplicate).sort()).toEqual([false, true]);
    expect(outcomes.map((outcome) => outcome?.result)).toEqual([
      { kind: "stored", leadId: "lead-1" },
      { kind: "stored", leadId: "lead-1" },
    ]);
    await stopAll(databases);
  });

  test("an outcome whose lead was erased no longer counts; a failure is not remembered", async () => {
    const { databases } = await replicas(2);
    const [a, b] = databases.map((database) => createPostgresSubmissions(database)) as [
      PostgresSubmissions,
      PostgresSubmissions,
    ];
    await expect.poll(() => a.salt() !== null && b.salt() !== null).toBe(true);
    let runs = 0;
    const stored = async () => {
      runs += 1;
      return { kind: "stored", leadId: `lead-${runs}` };
    };
    const erased = new Set<string>();
    const stillHolds = async (result: { kind: string; leadId?: string }) => !erased.has(result.leadId ?? "");
    const submit = (replica: PostgresSubmissions, task = stored) =>
      replica.run({ fingerprint: "f2", task, keep: kept, stillHolds, ttlMs: 60_000 });
    expect(await submit(a)).toMatchObject({ duplicate: false });
    expect(await submit(b)).toMatchObject({ duplicate: true, result: { leadId: "lead-1" } });
    erased.add("lead-1");
    expect(await submit(b)).toMatchObject({ duplicate: false, result: { leadId: "lead-2" } });
    expect(await submit(a)).toMatchObject({ duplicate: true, result: { leadId: "lead-2" } });

    const failing = async () => ({ kind: "failed" });
    expect(
      await a.run({ fingerprint: "f3", task: failing, keep: kept, stillHolds, ttlMs: 60_000 }),
    ).toMatchObject({
      duplicate: false,
    });
    expect(
      await b.run({ fingerprint: "f3", task: failing, keep: kept, stillHolds, ttlMs: 60_000 }),
    ).toMatchObject({
      duplicate: false,
    });
    await stopAll(databases);
  });

  test("a claim left by a replica that died is taken over once its lease has passed", async () => {
    const { url, databases } = await replicas(1);
    const replicated = createPostgresSubmissions(databases[0] as Database);
    await expect.poll(() => replicated.salt() !== null).toBe(true);
    await postgres.sql(
      "INSERT INTO submissions (fingerprint, outcome, expires_at) VALUES ('f4', 'running', now() - interval '1 second')",
      [],
      nameOf(url),
    );
    const outcome = await replicated.run({
      fingerprint: "f4",
      task: async () => ({ kind: "stored" }),
      keep: kept,
      stillHolds: async () => true,
      ttlMs: 60_000,
    });
    expect(outcome).toMatchObject({ duplicate: false });
    const rows = await postgres.sql<{ outcome: string }>("SELECT outcome FROM submissions", [], nameOf(url));
    expect(rows).toEqual([{ outcome: "kept" }]);
    await stopAll(databases);
  });
});
