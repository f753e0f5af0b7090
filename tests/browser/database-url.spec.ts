import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { MIGRATION_LOCK } from "~/db/advisory-locks.server";
import { COMMANDS, type CommandName, everyInvocation } from "~/leads/operations/command-forms";
import { validEnquiry } from "../support/enquiry-page";
import { emailJsAppEnv, type FakeEmailJs, startFakeEmailJs } from "../support/fake-emailjs";
import { test as base, expect } from "../support/fixtures";
import { postEnquiry, requestsFor } from "../support/lead-fixtures";
import { startPostgres, type TestPostgres } from "../support/postgres";
import {
  freePort,
  healthDetails,
  type RunningServer,
  startServer,
  TEST_HEALTH_TOKEN,
} from "../support/server-process";

// A wrong DATABASE_URL, each way an operator gets it wrong, with the real built server and a
// real PostgreSQL: one start-up line names the variable and the cause (never the password or
// the URL), pages are served, an enquiry is answered without a 500 and kept in the data folder's
// spool, and connecting is retried until the mistake is fixed (then the spool moves into the
// database and the lead reaches EmailJS). And the operator's commands, in every form
// they accept, answer a wrong DATABASE_URL with one line and exit 1.

// A fake EmailJS on a loopback address of this file's own; the tests one after the other.
const FAKE_HOST = (process.env.FAKE_EMAILJS_HOST ?? "127.0.0.2").replace(/^127\.0\./, "127.22.");
base.describe.configure({ mode: "default", timeout: 90_000 });

const test = base.extend<
  { fake: FakeEmailJs; folder: string },
  { fakeEmailJs: FakeEmailJs; postgres: TestPostgres }
>({
  fakeEmailJs: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern; empty means none
    async ({}, use) => {
      const fake = await startFakeEmailJs(FAKE_HOST);
      await use(fake);
      await fake.close();
    },
    { scope: "worker" },
  ],
  postgres: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern; empty means none
    async ({}, use) => {
      const postgres = await startPostgres("pg-e2e-url");
      await use(postgres);
      await postgres.dispose();
    },
    { scope: "worker", timeout: 90_000 },
  ],
  fake: async ({ fakeEmailJs }, use) => {
    fakeEmailJs.reset();
    await use(fakeEmailJs);
  },
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern; empty means none
  folder: async ({}, use) => {
    const folder = mkdtempSync(join(tmpdir(), "database-url-"));
    await use(folder);
    rmSync(folder, { recursive: true, force: true });
  },
});

interface DatabaseDetail {
  database?: "ok" | { state: string; cause?: string };
}

async function databaseDetail(url: string): Promise<DatabaseDetail["database"]> {
  const response = await fetch(`${url}/healthz`, {
    headers: { Authorization: `Bearer ${TEST_HEALTH_TOKEN}` },
  });
  return ((await response.json()) as DatabaseDetail).database;
}

const lines = (server: RunningServer, pattern: RegExp) =>
  server
    .output()
    .split("\n")
    .filter((line) => pattern.test(line));

/**
 * What every wrong URL must give: one line naming DATABASE_URL and `cause`, pages served, an
 * enquiry answered 303 and kept in the spool (as `/healthz` counts it), and `/healthz` saying
 * why, all without `password` or `url` anywhere. Resolves with the enquiry's name.
 */
async function expectServedDespite(
  server: RunningServer,
  fake: FakeEmailJs,
  cause: RegExp,
  password: string,
  url: string,
) {
  await expect.poll(() => lines(server, /DATABASE_URL/).length).toBe(1);
  const [line = ""] = lines(server, /DATABASE_URL/);
  expect(line).toMatch(cause);

  for (const path of ["/privacy-policy", "/?page=2"]) {
    const page = await fetch(`${server.url}${path}`);
    expect(page.status, path).toBe(200);
    expect(await page.text(), path).toContain("</html>");
  }

  const values = validEnquiry({ name: `Database URL ${Date.now()}` });
  const answer = await postEnquiry(server.url, values);
  expect(answer.status).toBe(303);
  expect((await healthDetails(server.url)).leads.spooled).toBe(1);
  expect(requestsFor(fake, values.name)).toEqual([]);

  const detail = await databaseDetail(server.url);
  expect(detail).toMatchObject({ state: "unreachable" });
  expect(typeof detail === "object" && detail.cause).toMatch(cause);

  for (const secret of [password, url]) {
    expect(server.output()).not.toContain(secret);
    expect(JSON.stringify(detail)).not.toContain(secret);
  }
  return values.name;
}

test("a DATABASE_URL that is not a URL: one config line, pages and enquiries served", async ({
  fake,
  folder,
}) => {
  // libpq's key=value form, which pg does not read as a URL.
  const password = "pw-not-a-url-51c3";
  const url = `host=db.internal user=site password=${password}`;
  const server = await startServer({ env: { ...emailJsAppEnv(fake, folder), DATABASE_URL: url } });
  try {
    await expectServedDespite(server, fake, /DATABASE_URL is not a URL/, password, url);
    expect(lines(server, /DATABASE_URL/)[0]).toMatch(
      /^config: DATABASE_URL is not a URL; write postgres:\/\//,
    );
  } finally {
    await server.stop();
  }
});

test("an unknown host: one line with the cause, pages and enquiries served", async ({ fake, folder }) => {
  const password = "pw-unknown-host-9b2e";
  const url = `postgres://site:${password}@db.invalid:5432/site`;
  const server = await startServer({ env: { ...emailJsAppEnv(fake, folder), DATABASE_URL: url } });
  try {
    await expectServedDespite(server, fake, /host name not found \(ENOTFOUND\)/, password, url);
    expect(lines(server, /DATABASE_URL/)[0]).toMatch(
      /^database: cannot connect to DATABASE_URL \(host db\.invalid, port 5432, database site\): host name not found \(ENOTFOUND\); pages are served/,
    );
  } finally {
    await server.stop();
  }
});

// A password with an unencoded #, / or ? is misread (`site:2024` as the host and port, the rest
// as a fragment, path or query), and one with a % that does not decode made the parse throw:
// each is refused before connecting, and the site runs as while the database is unreachable.
for (const [kind, url, password] of [
  ["an unencoded #", "postgres://site:2024#SecretPw-7c1@db:5432/site", "SecretPw-7c1"],
  ["an unencoded /", "postgres://site:1234/secretpw-7c2@db:5432/site", "secretpw-7c2"],
  ["an unencoded ?", "postgres://site:5432?SecretPw-7c3@db:5432/site", "SecretPw-7c3"],
  ["a % escape that does not decode", "postgres://site:p%ZZsecret-7c4@db:5432/site", "secret-7c4"],
  ["a cut-off % escape", "postgres://site:secret-7c5%E0%A4%A@db:5432/site", "secret-7c5"],
] as const) {
  test(`a password with ${kind}: one line says to percent-encode it, pages and enquiries served`, async ({
    fake,
    folder,
  }) => {
    const server = await startServer({ env: { ...emailJsAppEnv(fake, folder), DATABASE_URL: url } });
    try {
      await expectServedDespite(server, fake, /percent-encode the password/, password, url);
      expect(lines(server, /DATABASE_URL/)[0]).toMatch(/^config: DATABASE_URL has a /);
    } finally {
      await server.stop();
    }
  });
}

test("a wrong password: one line with the cause; once the role exists the server connects by itself", async ({
  fake,
  folder,
  postgres,
}) => {
  const password = "pw-wrong-password-3d7a";
  const role = `site_${Date.now()}`;
  const url = `postgres://${role}:${password}@127.0.0.1:${postgres.port}/${role}`;
  const server = await startServer({ env: { ...emailJsAppEnv(fake, folder), DATABASE_URL: url } });
  try {
    const spooled = await expectServedDespite(
      server,
      fake,
      /password authentication failed \(28P01\)/,
      password,
      url,
    );
    await postgres.sql(`CREATE ROLE ${role} LOGIN PASSWORD '${password}'`);
    await postgres.sql(`CREATE DATABASE ${role} OWNER ${role}`);
    await expect.poll(() => databaseDetail(server.url), { timeout: 45_000 }).toBe("ok");
    // The spooled enquiry moves into the database and on to EmailJS, once.
    await expect.poll(() => requestsFor(fake, spooled).length, { timeout: 30_000 }).toBe(1);
    expect(lines(server, /reachable again/)).toHaveLength(1);
    expect(server.output()).not.toContain(password);
  } finally {
    await server.stop();
  }
});

test("a missing database: one line with the cause; once it is created the server connects and migrates", async ({
  fake,
  folder,
  postgres,
}) => {
  const name = `missing_${Date.now()}`;
  const url = postgres.url(name);
  const password = decodeURIComponent(new URL(url).password);
  const server = await startServer({ env: { ...emailJsAppEnv(fake, folder), DATABASE_URL: url } });
  try {
    const spooled = await expectServedDespite(
      server,
      fake,
      /database does not exist \(3D000\)/,
      password,
      url,
    );
    await postgres.sql(`CREATE DATABASE ${name}`);
    await expect.poll(() => databaseDetail(server.url), { timeout: 45_000 }).toBe("ok");
    await expect.poll(() => requestsFor(fake, spooled).length, { timeout: 30_000 }).toBe(1);
    expect(lines(server, /applied migrations/)).toHaveLength(1);
    const tables = await postgres.sql<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_name = 'notice_claims'",
      [],
      name,
    );
    expect(tables).toHaveLength(1);
  } finally {
    await server.stop();
  }
});

/** How long an operator's command may take to answer a database it cannot use (its own deadline). */
const COMMAND_DEADLINE_MS = 15_000;

interface CommandRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `npm run <command> -- <args>` as the image runs it (build/<command>.js), stopped at the deadline. */
function runCommand(command: CommandName, args: string[], cwd: string, databaseUrl: string) {
  return new Promise<CommandRun>((resolve) => {
    execFile(
      process.execPath,
      [join(process.cwd(), `build/${command}.js`), ...args],
      {
        cwd,
        timeout: COMMAND_DEADLINE_MS,
        env: {
          PATH: process.env.PATH ?? "",
          NODE_ENV: "production",
          ENQUIRY_STORE_DIR: cwd,
          DATABASE_URL: databaseUrl,
        },
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : null) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

test("every form of every operator command answers an unreachable or malformed DATABASE_URL with one line and exit 1", async ({
  folder,
}) => {
  // A port nothing listens on, and a password whose % escape does not decode.
  const port = await freePort();
  const urls = [
    {
      password: "pw-stopped-4e8",
      secret: "stopped-4e8",
      cause: /: connection refused \(ECONNREFUSED\); start/,
    },
    { password: "p%ZZsecret-4e9", secret: "secret-4e9", cause: /percent-encode the password/ },
  ].map(({ password, ...rest }) => ({ url: `postgres://site:${password}@127.0.0.1:${port}/site`, ...rest }));
  const runs = (Object.keys(COMMANDS) as CommandName[]).flatMap((command) =>
    everyInvocation(command).flatMap((args) => urls.map((url) => ({ command, args, ...url }))),
  );
  // Four at a time: each run is a node process, and the machine is shared.
  const results: CommandRun[] = [];
  for (let start = 0; start < runs.length; start += 4) {
    const batch = runs.slice(start, start + 4);
    results.push(
      ...(await Promise.all(batch.map((run) => runCommand(run.command, run.args, folder, run.url)))),
    );
  }
  runs.forEach(({ command, args, url, secret, cause }, index) => {
    const { code, stdout, stderr } = results[index] as CommandRun;
    const called = `${command} ${args.join(" ")} with ${cause}`;
    expect.soft(code, `${called}: ${stderr}`).toBe(1);
    expect.soft(stdout, called).toBe("");
    const said = stderr.trim().split("\n");
    expect.soft(said, called).toHaveLength(1);
    expect.soft(said[0], called).toMatch(new RegExp(`^${command}: .*DATABASE_URL`));
    expect.soft(said[0], called).toMatch(cause);
    expect.soft(stderr, called).not.toContain(secret);
    expect.soft(stderr, called).not.toContain(url);
  });
  expect(runs.length).toBeGreaterThanOrEqual(urls.length * Object.keys(COMMANDS.leads).length);
});

test("an operator command whose database does not answer in time (another process migrating it): one line, exit 1 before its deadline", async ({
  folder,
  postgres,
}) => {
  const url = await postgres.createDatabase();
  // Another process migrating: it holds the migration lock, so the command's migration waits.
  const holder = new pg.Client({ connectionString: url });
  await holder.connect();
  try {
    await holder.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
    const { code, stdout, stderr } = await runCommand("leads", ["--health"], folder, url);
    expect(code, stderr).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toMatch(
      /^leads: cannot connect to DATABASE_URL \(host 127\.0\.0\.1, port \d+, database \w+\): no answer within 10 s; start the database or fix DATABASE_URL\n$/,
    );
  } finally {
    await holder.end();
  }
});
