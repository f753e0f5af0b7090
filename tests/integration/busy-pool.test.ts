import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { BUSY_REPORT_MS, type Database } from "~/db/database.server";
import { handleEnquiry } from "~/enquiry/action.server";
import { HONEYPOT_FIELD } from "~/enquiry/trap-fields";
import { parseEnv } from "~/env.server";
import { createServices } from "../../server/app-services";
import { gate } from "../support/gate";
import { startPostgres, type TestPostgres } from "../support/postgres";

// docs/deploying.md, "Several replicas", Connections: a query that waits 3 s for one of its
// replica's connections (all busy) is treated like a slow database, the enquiry kept in the
// server's spool, and one line a minute at most names DATABASE_POOL_SIZE. It is no outage: only
// that query falls back, and the spool moves into the database once a connection is free.

let postgres: TestPostgres;
let folder: string;
beforeAll(async () => {
  postgres = await startPostgres("pg-unit-busy-pool");
  folder = mkdtempSync(join(tmpdir(), "busy-pool-"));
}, 60_000);
afterAll(async () => {
  await postgres?.dispose();
  rmSync(folder, { recursive: true, force: true });
}, 60_000);
/** What a test started, let go of even when it fails: a connection held, the services. */
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  vi.restoreAllMocks();
});

/** The server's services on a database of their own, with a pool of one connection, not started but for the database. */
async function servicesWithPoolOfOne() {
  const url = await postgres.createDatabase();
  const created = createServices(
    parseEnv({
      DATABASE_URL: url,
      DATABASE_POOL_SIZE: "1",
      ENQUIRY_STORE_DIR: folder,
      NOTICE_SECRET: "a-shared-secret-of-at-least-32-characters",
      ENQUIRY_THROTTLE: "0",
    }),
  );
  const database = created.database as Database;
  database.start();
  await database.ready();
  // The double-submit memory is in use once it has read its salt.
  await expect.poll(() => created.services.submissions?.salt()).toEqual(expect.any(String));
  cleanups.push(() => created.stop());
  return { ...created, database, name: new URL(url).pathname.slice(1) };
}

function enquiryFrom(name: string): Request {
  return new Request("http://localhost/?index", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      name,
      email: "asha@example.in",
      countryCode: "91",
      phoneNumber: "9876543210",
      message: "A booking app for our clinics.",
      [HONEYPOT_FIELD]: "",
    }).toString(),
  });
}

describe("a replica whose pooled connections are all busy", () => {
  test("keeps enquiries in the spool, stays reachable, and says so once a minute naming DATABASE_POOL_SIZE", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const outcomes = vi.spyOn(console, "log").mockImplementation(() => {});
    const app = await servicesWithPoolOfOne();
    const { database, services } = app;
    const enquire = async (name: string) => {
      const answer = await handleEnquiry(enquiryFrom(name), { ...services, client: "203.0.113.9" });
      expect(answer).toBeInstanceOf(Response);
      return (answer as Response).status;
    };
    const lines = () => errors.mock.calls.map(([line]) => String(line));
    const busyLines = () => lines().filter((line) => line.includes("connections were busy"));
    const enquiryOutcomes = () =>
      outcomes.mock.calls
        .map(([line]) => String(line))
        .filter((line) => line.startsWith('{"event":"enquiry"'))
        .map((line) => (JSON.parse(line) as { outcome: string }).outcome);
    const count = async (table: string) =>
      (await postgres.sql<{ count: string }>(`SELECT count(*) FROM ${table}`, [], app.name))[0]?.count;
    const calls = [vi.spyOn(database, "query"), vi.spyOn(database, "transaction")];
    /** The leads waiting in the spool of the data folder. */
    const spooled = () => readdirSync(join(folder, "spool")).filter((name) => name.endsWith(".json"));
    /** The database's calls that waited for a connection in vain. */
    const waitedForAConnection = () =>
      calls
        .flatMap((spy) => spy.mock.settledResults)
        .filter((result) => result.type === "rejected" && String(result.value).includes("connections busy"))
        .length;

    errors.mockClear();
    // The pool's one connection, held by a long transaction as by a slow enquiry.
    const held = gate();
    const holding = database.transaction(() => held.promise);
    cleanups.push(async () => {
      held.open();
      await holding;
    });
    await expect
      .poll(async () =>
        (
          await postgres.sql<{ state: string }>(
            "SELECT state FROM pg_stat_activity WHERE datname = $1 AND application_name = 'agency-site'",
            [app.name],
          )
        ).map((row) => row.state),
      )
      .toEqual(["idle in transaction"]);

    // The clock of the once-a-minute line, moved by the test; pg and the pool's 3 s wait keep theirs.
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.now();
    expect(await enquire("Asha Rao")).toBe(303);
    expect(spooled()).toHaveLength(1);
    expect(enquiryOutcomes()).toEqual(["spooled"]);
    // The double-submit claim, the limits and the lead's write (which goes on after the visitor's
    // answer) each waited for a connection: one line.
    await expect.poll(waitedForAConnection).toBeGreaterThanOrEqual(3);
    expect(busyLines()).toEqual([
      "database: all DATABASE_POOL_SIZE=1 connections were busy for 3 s; enquiries meanwhile wait in the server's spool (ENQUIRY_STORE_DIR/spool): raise DATABASE_POOL_SIZE (replicas × pool size under the database's max_connections) or add replicas",
    ]);

    vi.setSystemTime(start + BUSY_REPORT_MS - 1);
    await expect(database.query("SELECT 1")).rejects.toThrow("all 1 connections busy");
    expect(busyLines()).toHaveLength(1);

    vi.setSystemTime(start + BUSY_REPORT_MS);
    expect(await enquire("Ravi Iyer")).toBe(303);
    expect(spooled()).toHaveLength(2);
    await expect.poll(busyLines).toHaveLength(2);
    // Nothing was kept nor counted in the database meanwhile: the limits counted in memory.
    expect(await count("leads")).toBe("0");
    expect(await count("rate_limits")).toBe("0");
    // No outage: the replica was never marked unreachable; besides the busy lines, one line said
    // that enquiries wait in the spool.
    expect(database.state()).toEqual({ status: "ok" });
    const spoolLine = `lead store: the database did not take an enquiry (no answer within 2 s); enquiries wait in the spool ${join(folder, "spool")} and move into the database when it answers (npm run leads -- --health counts them)`;
    expect(lines().filter((line) => !busyLines().includes(line))).toEqual([spoolLine]);

    // Its connection free again, the next enquiry is kept in the database and counted there.
    held.open();
    await holding;
    expect(await enquire("Meera Das")).toBe(303);
    expect(enquiryOutcomes()).toEqual(["spooled", "spooled", "stored"]);
    expect(Number(await count("rate_limits"))).toBeGreaterThan(0);
    const stored = await postgres.sql<{ name: string }>(
      "SELECT enquiry->>'name' AS name FROM leads",
      [],
      app.name,
    );
    expect(stored.map((row) => row.name)).toContain("Meera Das");
    // The two wait in the spool for the drain (tests/integration/lead-spool.test.ts), files of their own.
    expect(spooled()).toHaveLength(2);
  }, 90_000);
});
