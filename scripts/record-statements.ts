// Writes every statement this checkout's code sends to PostgreSQL, with values as the code binds
// them, to a queries.sql (tests/fixtures/previous-release/queries.sql at a release, through
// `npm run release`): the next release must run each of them on its schema, since this one keeps
// running beside it during a rolling deploy (tests/integration/previous-release.test.ts).
//
// Usage: vite-node scripts/record-statements.ts <queries.sql>
//
// It migrates a throwaway PostgreSQL, then drives each module that talks to the database through
// its own functions (the lead store, its lock, erasure and import, notice claims, double-submit
// detection, field metrics, the rate limits) while pg records what they send and from which line.
// Every `.query(` call of app/ and server/ must have sent something (or be one of the few listed
// below, with why), so a statement added to the code without a drive here stops the release.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import pg from "pg";
import { createDatabase, type Database } from "~/db/database.server";
import { migrate } from "~/db/migrate.server";
import { readMigrations } from "~/db/migrations.server";
import { createPostgresNoticeClaims } from "~/enquiry/notice-claims.server";
import { createPostgresSubmissions } from "~/enquiry/postgres-submissions.server";
import { databaseLimitStore } from "~/http/database-limits.server";
import type { Enquiry } from "~/lead-parts/enquiry";
import { createFolderLeadStore } from "~/leads/folder/store.server";
import { withDelivery } from "~/leads/lead";
import { eraseLeadRow } from "~/leads/postgres/erasure.server";
import { importLeadFolder } from "~/leads/postgres/import.server";
import { createPostgresDelivererLock, readPostgresLockHolder } from "~/leads/postgres/lock.server";
import { createPostgresLeadStore } from "~/leads/postgres/store.server";
import {
  createPostgresVitalsStore,
  readPostgresRecords,
  readPostgresTaps,
} from "~/vitals/postgres-store.server";
import { tapRecordOf } from "~/vitals/store.server";
import { startPostgres } from "../tests/support/postgres";
import { queriesFile, type RecordedStatement } from "./lib/queries-file";
import { type CallSite, callSites, ROOT } from "./lib/statement-sites";

const [output] = process.argv.slice(2);
if (!output) {
  console.error("usage: vite-node scripts/record-statements.ts <queries.sql>");
  process.exit(2);
}

/**
 * Call sites that send nothing a release running beside the next one could send: each with why.
 * Matched by file and a piece of the call's text.
 */
const NOT_RECORDED: { file: string; contains: string; why: string }[] = [
  {
    file: "app/db/migrate.server.ts",
    contains: "INSERT INTO schema_migrations",
    why: "a release applies its own migrations only to a database older than itself, never beside a newer release",
  },
  {
    file: "app/db/migrate.server.ts",
    contains: "UPDATE schema_migrations SET checksum",
    why: "runs once, on a database a release before checksums migrated",
  },
];

const sites = callSites();
const recorded: RecordedStatement[] = [];
/** Call sites that sent something, as `file:line`. */
const reached = new Set<string>();
let recording = false;

/** The app's line that sent a statement: the innermost frame that is a call site, or a frame in a library the app hands its pool to. */
function sender(stack: string): { site: CallSite | null; library: string | null } {
  let library: string | null = null;
  for (const line of stack.split("\n").slice(1)) {
    const at = /\(?(\/[^():]+):(\d+):\d+\)?$/.exec(line.trim());
    if (!at?.[1] || !at[2]) continue;
    const file = relative(ROOT, at[1]);
    const module = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(at[1])?.[1];
    if (module && module !== "pg" && module !== "pg-pool") library ??= module;
    const site = sites.find((candidate) => candidate.file === file && candidate.line === Number(at[2]));
    if (site && !site.passThrough) return { site, library };
  }
  return { site: null, library };
}

type QueryArguments = [string | { text: string; values?: unknown[] }, unknown[]?];

/** Records each statement sent through `prototype.query` while `recording`. */
function recordOn(prototype: { query: (...args: QueryArguments) => unknown }) {
  const original = prototype.query;
  prototype.query = function (this: unknown, ...args: QueryArguments) {
    const [config, values] = args;
    const result = original.apply(this, args);
    if (!recording) return result;
    const text = typeof config === "string" ? config : config.text;
    const bound = (typeof config === "string" ? values : (config.values ?? values)) ?? [];
    const stack = new Error().stack ?? "";
    // The pool's own query on the connection it lends: recorded as the pool's.
    if (prototype === pg.Client.prototype && stack.includes("/node_modules/pg-pool/")) return result;
    const { site, library } = sender(stack);
    if (!site && !library) return result;
    const statement: RecordedStatement = {
      source: site
        ? `${site.file}: ${site.function}`
        : `${library} (the app hands it its pool: app/http/database-limits.server.ts)`,
      text,
      values: bound.map(prepare),
      failed: false,
    };
    if (site) reached.add(`${site.file}:${site.line}`);
    recorded.push(statement);
    if (result instanceof Promise) {
      result.catch(() => {
        statement.failed = true;
      });
    }
    return result;
  };
}

/** A value as pg sends it: text, or null. */
function prepare(value: unknown): string | null {
  // pg's own conversion (dates, arrays, JSON, bigint) is what the server receives.
  const prepared = (pg as unknown as { utils: { prepareValue(value: unknown): unknown } }).utils.prepareValue(
    value,
  );
  return prepared === null || prepared === undefined ? null : String(prepared);
}

/** The same statements at each release: each lead id the stores drew becomes the next of a fixed series. */
function stableIds(statements: RecordedStatement[]): RecordedStatement[] {
  const ids = new Map<string, string>();
  const stable = (id: string) => {
    if (!ids.has(id)) ids.set(id, `5a4f3c1e-0b1d-4c7e-9f2a-${(ids.size + 1).toString().padStart(12, "0")}`);
    return ids.get(id) as string;
  };
  const uuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
  return statements.map((statement) => ({
    ...statement,
    values: statement.values.map((value) => value?.replace(uuid, stable) ?? null),
  }));
}

recordOn(pg.Pool.prototype as never);
recordOn(pg.Client.prototype as never);

const enquiry: Enquiry = {
  name: "Previous Release",
  email: "previous@example.com",
  countryCode: "91",
  phoneNumber: "9876543210",
  message: "A lead stored by the previous release.",
};
const source = { landing: "/", parameters: { utm_source: "newsletter" } };
/** The clock the stores run on: the same times at each release. */
const at = (minutes: number) => new Date(Date.UTC(2026, 10, 20, 9, minutes));
const now = () => at(30);

const postgres = await startPostgres("pg-record-statements");
const work = await mkdtemp(join(tmpdir(), "record-statements-"));
const databases: Database[] = [];
try {
  const url = await postgres.createDatabase();
  const migrations = readMigrations();
  const database = createDatabase({ url, poolSize: 2, migrations, log: () => {} });
  databases.push(database);
  database.start();
  await database.ready();
  recording = true;
  // The stores' one line per lead written; this script's output is what it wrote.
  console.log = () => {};
  // Double-submit detection reads its salt once the database is ready.
  const submissions = createPostgresSubmissions(database);
  while (submissions.salt() === null) await new Promise((resolve) => setImmediate(resolve));

  // A replica of this release starting on a database already migrated.
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await migrate(client, migrations);
  await client.end();

  const store = createPostgresLeadStore({ database, now, log: () => {}, maxSpamPerReason: 1 });
  const lead = await store.add(enquiry, ["emailjs", "webhook"], source);
  const inbox = await store.add({ ...enquiry, name: "Inbox" }, []);
  await store.quarantine({ ...enquiry, name: "Spam" }, "honeypot");
  await store.quarantine({ ...enquiry, name: "Spam again" }, "honeypot");
  await store.has(lead.id);
  await store.hurryPending();
  await store.adopt(["emailjs", "webhook"]);
  const claimed = (await store.claimNext("emailjs", new Set())).lead ?? lead;
  await store.claimNext("emailjs", new Set([lead.id]));
  const failed = {
    state: "pending" as const,
    attempts: 1,
    lastError: "EmailJS answered 503",
    nextAttemptAt: at(35).toISOString(),
    queuedAt: at(30).toISOString(),
  };
  await store.saveDelivery(claimed, "emailjs", failed);
  await store.claimNext("webhook", new Set());
  await store.saveDelivery(claimed, "webhook", { ...failed, lastError: "the webhook answered 503" });
  await store.saveDelivery(claimed, "webhook", undefined);
  await store.saveDelivery(inbox, "emailjs", undefined);
  await store.save(withDelivery(claimed, "webhook", failed));
  await store.scan();
  await store.list();
  for await (const _ of store.each(at(0))) break;
  for await (const _ of store.each(at(0), "newest first")) break;
  await store.counts(new Map([[inbox.id, inbox]]));
  await store.probe();
  await store.isErased(inbox);
  await store.erase(inbox);
  await eraseLeadRow(database, lead.id, now());
  await store.prune({ days: 90, spamDays: 30 });
  // A transaction whose work fails is rolled back.
  await database
    .transaction(async () => {
      throw new Error("the work failed");
    })
    .catch(() => {});

  const lock = createPostgresDelivererLock(database);
  await lock.acquire();
  await lock.heartbeat();
  await readPostgresLockHolder(database);
  await lock.release();

  const folder = join(work, "data", "leads");
  await mkdir(folder, { recursive: true });
  const files = createFolderLeadStore({ folder, now, log: () => {} });
  await files.add({ ...enquiry, name: "From the folder" }, ["emailjs"]);
  await files.erase(await files.add({ ...enquiry, name: "Erased in the folder" }, []));
  await importLeadFolder({ database, folder, now, log: () => {} });

  const claims = createPostgresNoticeClaims(database, () => {});
  await claims.mark("notice-1", at(40).getTime());
  await claims.sweep();

  const answer = { status: 303, location: "/?sent=1" };
  const submission = (fingerprint: string, options: { keep?: boolean; holds?: boolean; ttlMs?: number }) =>
    submissions.run({
      fingerprint,
      task: async () => answer,
      keep: () => options.keep ?? true,
      stillHolds: async () => options.holds ?? true,
      ttlMs: options.ttlMs ?? 600_000,
    });
  await submission("fingerprint-1", {});
  // The same again: found kept, it no longer holds (its lead was erased), is forgotten and runs, not kept this time.
  await submission("fingerprint-1", { holds: false, keep: false });
  await submissions
    .run({
      fingerprint: "fingerprint-2",
      task: async () => Promise.reject(new Error("the lead store failed")),
      keep: () => true,
      stillHolds: async () => true,
      ttlMs: 600_000,
    })
    .catch(() => {});
  // Kept for no time: found expired next time, dropped, and run again.
  await submission("fingerprint-3", { ttlMs: 0 });
  await submission("fingerprint-3", {});
  await submissions.sweep();

  const vitals = createPostgresVitalsStore(database, () => {});
  const record = {
    at: "2026-11-20T09:00:00.000Z",
    route: "/",
    device: "mobile",
    nav: "navigate",
    cores: 8,
    memoryGb: 4,
    metric: "LCP",
    value: 1830.5,
    rating: "good",
  } as const;
  await vitals.append([record, { ...record, metric: "CLS", value: 0.02, cores: null, memoryGb: null }]);
  await vitals.append([
    tapRecordOf({ tap: "whatsapp", route: "/", device: "mobile", campaign: "spring-launch" }, at(0)),
  ]);
  await readPostgresRecords(database, at(0));
  await readPostgresTaps(database, at(0));
  await vitals.prune();

  const limiter = databaseLimitStore(database).limiter({ points: 5, duration: 600, keyPrefix: "enquiry" });
  await limiter.consume("203.0.113.7");
  await limiter.reward("203.0.113.7");
  await limiter.penalty("203.0.113.7");
  await limiter.set("203.0.113.7", 5, 600);
  await limiter.get("203.0.113.7");
  await limiter.delete("203.0.113.7");
  await (limiter as unknown as { clearExpired(before: number): Promise<unknown> }).clearExpired(
    at(0).getTime(),
  );

  recording = false;
  const missing = sites.filter(
    (site) =>
      !site.passThrough &&
      !reached.has(`${site.file}:${site.line}`) &&
      !recorded.some((statement) => site.text !== null && statement.text === site.text) &&
      !NOT_RECORDED.some((skip) => skip.file === site.file && site.call.includes(skip.contains)),
  );
  if (missing.length > 0) {
    for (const site of missing) console.error(`${site.file}:${site.line} (${site.function}) sent nothing`);
    console.error(
      `record-statements: ${missing.length} call(s) of the code sent no statement; drive each in scripts/record-statements.ts (or list it in NOT_RECORDED with why)`,
    );
    process.exitCode = 1;
  } else {
    await writeFile(output, queriesFile(stableIds(recorded.filter((statement) => !statement.failed))));
    console.info(`wrote ${output}: ${recorded.length} statements from ${reached.size} call sites`);
  }
} finally {
  recording = false;
  for (const database of databases) await database.stop();
  await postgres.dispose();
  await rm(work, { recursive: true, force: true });
}
