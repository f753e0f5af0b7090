import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { createDatabase, type Database } from "~/db/database.server";
import { readMigrations } from "~/db/migrations.server";
import { MAX_LEADS } from "~/leads/contract.server";
import { createDelivery, type DestinationSender } from "~/leads/delivery/delivery.server";
import { createPostgresDelivererLock } from "~/leads/postgres/lock.server";
import { createPostgresLeadStore } from "~/leads/postgres/store.server";
import { startPostgres, type TestPostgres } from "../support/postgres";

// The heap is measured after a full collection, so garbage left by the sends is not counted.
setFlagsFromString("--expose-gc");
const collect = runInNewContext("gc") as () => void;
const heapUsed = () => {
  collect();
  return process.memoryUsage().heapUsed;
};

let postgres: TestPostgres;
let database: Database;
beforeAll(async () => {
  postgres = await startPostgres("pg-delivery-cap");
  const url = await postgres.createDatabase();
  // 20,000 commits: what is measured is the delivery's order and memory, not the disk's fsyncs.
  await postgres.sql(`ALTER DATABASE "${new URL(url).pathname.slice(1)}" SET synchronous_commit = off`);
  database = createDatabase({
    url,
    poolSize: 4,
    migrations: readMigrations(),
    log: () => {},
  });
  database.start();
  await database.ready();
}, 60_000);
afterAll(async () => {
  await database?.stop();
  await postgres?.dispose();
}, 60_000);

/** Lead `index`: received one second after the one before, due in one of seven hours (all past). */
const hourDue = (index: number) => index % 7;

it(`delivers ${MAX_LEADS} pending leads once each, soonest due first and then oldest, with the heap flat`, async () => {
  vi.spyOn(console, "log").mockImplementation(() => {});
  await database.query(
    `INSERT INTO leads (id, received_at, state, attempts, next_attempt_at, queued_at, enquiry)
     SELECT gen_random_uuid(), base + i * interval '1 second', 'pending', 0,
            base + interval '1 day' - (i % 7) * interval '1 hour', base + i * interval '1 second',
            jsonb_build_object('name', 'Lead ' || i, 'email', 'lead' || i || '@example.in',
              'countryCode', '91', 'phoneNumber', '9876543210', 'message', repeat('A message. ', 40))
     FROM generate_series(0, $1 - 1) AS i, (SELECT now() - interval '3 days' AS base) AS b`,
    [MAX_LEADS],
  );
  const expected = Array.from({ length: MAX_LEADS }, (_, index) => index)
    .sort((a, b) => hourDue(b) - hourDue(a) || a - b)
    .map((index) => `Lead ${index}`);

  const sent: string[] = [];
  const heap: number[] = [];
  const emailjs: DestinationSender = async (lead) => {
    sent.push(lead.enquiry.name);
    if (sent.length % 2_000 === 0) heap.push(heapUsed());
    return { ok: true };
  };
  const before = heapUsed();
  heap.push(before);
  const started = Date.now();
  const delivery = createDelivery({
    store: createPostgresLeadStore({ database, log: () => {} }),
    routes: { emailjs },
    lock: createPostgresDelivererLock(database),
    intervalMs: 0,
    retentionDays: 90,
    spamRetentionDays: 30,
    log: () => {},
  });
  delivery.start();
  try {
    const reader = createPostgresLeadStore({ database, log: () => {} });
    await expect
      .poll(async () => (await reader.counts()).sent, { timeout: 240_000, interval: 500 })
      .toBe(MAX_LEADS);
  } finally {
    await delivery.stop();
  }
  const seconds = (Date.now() - started) / 1000;
  // What holding the 10,000 leads in memory costs, measured after delivery so that it cannot
  // weigh on the heap measured before it.
  const empty = heapUsed();
  const copy = await createPostgresLeadStore({ database, log: () => {} }).list();
  const copyBytes = heapUsed() - empty;
  expect(copy).toHaveLength(MAX_LEADS);
  const during = Math.max(...heap.slice(1));
  const growth = during - before;
  console.error(
    `${MAX_LEADS} leads delivered in ${seconds.toFixed(1)} s; heap ${mb(before)} before, at most ${mb(during)} during (${mb(growth)} more); holding them all costs ${mb(copyBytes)}`,
  );
  // Each sample is taken in the middle of a send, every 2,000 leads.
  expect(heap).toHaveLength(1 + MAX_LEADS / 2_000);
  expect(sent).toEqual(expected);
  expect(growth).toBeLessThan(copyBytes);
}, 300_000);

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
