import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { HONEYPOT_FIELD } from "../../app/enquiry/trap-fields";
import { validEnquiry } from "../support/enquiry-page";
import { test as base, expect } from "../support/fixtures";
import { postEnquiry } from "../support/lead-fixtures";
import { startPostgres, type TestPostgres } from "../support/postgres";
import { type RunningServer, startServer, TEST_HEALTH_TOKEN } from "../support/server-process";

// Two real servers with one DATABASE_URL, as two replicas behind a balancer: what one server
// promises holds for both together.

base.describe.configure({ mode: "default", timeout: 90_000 });

const NOTICE_SECRET = "replicas-share-this-notice-secret-0123456789";

const test = base.extend<
  object,
  { postgres: TestPostgres; replicas: [RunningServer, RunningServer]; url: string }
>({
  postgres: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern; empty means none
    async ({}, use) => {
      const postgres = await startPostgres("pg-e2e-replicas");
      await use(postgres);
      await postgres.dispose();
    },
    { scope: "worker", timeout: 90_000 },
  ],
  url: [async ({ postgres }, use) => use(await postgres.createDatabase()), { scope: "worker" }],
  replicas: [
    async ({ url }, use) => {
      const env = { DATABASE_URL: url, NOTICE_SECRET, ENQUIRY_RATE_LIMIT: "3", TRUST_PROXY: "127.0.0.1" };
      const replicas = [await startServer({ env }), await startServer({ env })] as [
        RunningServer,
        RunningServer,
      ];
      for (const replica of replicas) {
        await expect.poll(() => databaseReady(replica), { timeout: 30_000 }).toBe(true);
      }
      await use(replicas);
      await Promise.all(replicas.map((replica) => replica.stop()));
    },
    { scope: "worker", timeout: 90_000 },
  ],
});

async function databaseReady(server: RunningServer): Promise<boolean> {
  const response = await fetch(`${server.url}/healthz`, {
    headers: { Authorization: `Bearer ${TEST_HEALTH_TOKEN}` },
  });
  return ((await response.json()) as { database?: unknown }).database === "ok";
}

const SENT = "Email sent successfully!";

test("a landing URL shows its notice once, whichever replica each reload reaches", async ({ replicas }) => {
  const [a, b] = replicas;
  const answer = await postEnquiry(a.url, validEnquiry({ name: `Replica notice ${Date.now()}` }));
  expect(answer.status).toBe(303);
  const landing = answer.headers.get("location") ?? "";
  expect(landing).toMatch(/^\/\?enquiry=/);
  const pages = [];
  for (const replica of [b, a, b, a, b, a]) {
    pages.push(await (await fetch(`${replica.url}${landing}`)).text());
  }
  expect(pages.filter((page) => page.includes(SENT))).toHaveLength(1);
  expect(pages[0]).toContain(SENT);
});

test("npm run vitals summarises the beacons both replicas received", async ({ replicas, url }) => {
  const beacon = (value: number) =>
    JSON.stringify({
      route: "/privacy-policy",
      device: "tablet",
      navigationType: "navigate",
      metrics: [{ name: "LCP", value, rating: "good" }],
    });
  const [a, b] = replicas;
  for (const [replica, value] of [
    [a, 1200],
    [b, 3100],
    [a, 1500],
  ] as const) {
    const response = await fetch(`${replica.url}/vitals`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: beacon(value),
    });
    expect(response.status).toBe(202);
  }
  const summary = async () =>
    (
      await promisify(execFile)(process.execPath, [join(process.cwd(), "build/vitals.js")], {
        env: { PATH: process.env.PATH ?? "", NODE_ENV: "production", DATABASE_URL: url },
      })
    ).stdout;
  // Each replica writes its beacons with its next batch.
  await expect.poll(summary).toContain("3 samples");
  expect(await summary()).toMatch(/\/privacy-policy\s+tablet\s+LCP\s+3100 ms\s+needs improvement\s+3/);
});

test("npm run vitals with a database it cannot reach: one line with the cause, exit 1", async ({ url }) => {
  const wrong = url.replace(/:\/\/postgres:[^@]+@/, "://postgres:wrong-pass-5e1@");
  const run = promisify(execFile)(process.execPath, [join(process.cwd(), "build/vitals.js")], {
    env: { PATH: process.env.PATH ?? "", NODE_ENV: "production", DATABASE_URL: wrong },
  });
  const failure = (await run.then(
    () => null,
    (error: unknown) => error,
  )) as { code: number; stderr: string } | null;
  expect(failure?.code).toBe(1);
  expect(failure?.stderr.trim()).toMatch(
    /^vitals: cannot connect to DATABASE_URL \(host 127\.0\.0\.1, port \d+, database \w+\): password authentication failed \(28P01\); start the database or fix DATABASE_URL$/,
  );
  expect(failure?.stderr).not.toContain("wrong-pass-5e1");
});

/** Posts an enquiry as the browser does, through a proxy that names the client. */
function postAs(server: RunningServer, client: string, values: ReturnType<typeof validEnquiry>) {
  return fetch(`${server.url}/?index`, {
    method: "POST",
    headers: { "X-Forwarded-For": client },
    body: new URLSearchParams({ [HONEYPOT_FIELD]: "", ...values }),
    redirect: "manual",
  });
}

test("one client's budget holds across both replicas, for enquiries sent at once", async ({ replicas }) => {
  const answers = await Promise.all(
    Array.from({ length: 8 }, (_, index) =>
      postAs(replicas[index % 2] as RunningServer, "203.0.113.61", validEnquiry({ name: `Budget ${index}` })),
    ),
  );
  const statuses = answers.map((answer) => answer.status).sort();
  expect(statuses).toEqual([303, 303, 303, 429, 429, 429, 429, 429]);
  const refused = answers.find((answer) => answer.status === 429);
  expect(Number(refused?.headers.get("retry-after"))).toBeGreaterThan(500);
});
