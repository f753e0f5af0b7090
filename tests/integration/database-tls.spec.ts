import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test as base, expect } from "@playwright/test";
import {
  createCertificateAuthority,
  type ServerCertificate,
  signServerCertificate,
} from "../support/certificates";
import { startPostgres, type TestPostgres } from "../support/postgres";
import { databaseStatus, healthDetails, type RunningServer, startServer } from "../support/server-process";

// The TLS promises of docs/deploying.md ("Several replicas"), with the real built server and a
// real PostgreSQL serving TLS with a certificate for 127.0.0.1 signed by a CA made here: `sslmode=verify-full` with that CA
// connects over TLS, while another CA or another host name is refused; the same through
// `PGSSLMODE`, with the CA given as `NODE_EXTRA_CA_CERTS`; `require` checks the certificate as
// `verify-full` does; `no-verify` encrypts without checking.

base.describe.configure({ mode: "default", timeout: 90_000 });

interface Certificates {
  /** The CA that signed the server's certificate. */
  ca: string;
  /** A CA that signed nothing the server shows. */
  otherCa: string;
  server: ServerCertificate;
}

const test = base.extend<{ database: string }, { certificates: Certificates; postgres: TestPostgres }>({
  certificates: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern; empty means none
    async ({}, use) => {
      const folder = mkdtempSync(join(tmpdir(), "database-tls-"));
      const authority = createCertificateAuthority(folder, "site-ca");
      const other = createCertificateAuthority(folder, "other-ca");
      await use({
        ca: authority.certificatePath,
        otherCa: other.certificatePath,
        server: signServerCertificate(authority, folder, "IP:127.0.0.1"),
      });
      rmSync(folder, { recursive: true, force: true });
    },
    { scope: "worker" },
  ],
  postgres: [
    async ({ certificates }, use) => {
      const postgres = await startPostgres("pg-e2e-tls", { tls: certificates.server });
      await use(postgres);
      await postgres.dispose();
    },
    { scope: "worker", timeout: 90_000 },
  ],
  database: async ({ postgres }, use) => {
    await use(await postgres.createDatabase());
  },
});

let server: RunningServer | undefined;
test.afterEach(async () => {
  await server?.stop();
  server = undefined;
});

/** Starts the server on `url` with `env`; its database state once the first connection settled. */
async function databaseStateOf(url: string, env: Record<string, string> = {}): Promise<string> {
  const running = await startServer({ env: { DATABASE_URL: url, ...env } });
  server = running;
  let status = "connecting";
  await expect
    .poll(async () => {
      status = databaseStatus(await healthDetails(running.url));
      return status;
    })
    .not.toBe("connecting");
  return status;
}

/** The server holds connections to `database`, every one of them encrypted. */
async function expectOnlyTls(postgres: TestPostgres, database: string) {
  let encrypted: boolean[] = [];
  await expect
    .poll(async () => {
      const rows = await postgres.sql<{ ssl: boolean }>(
        `SELECT ssl FROM pg_stat_activity JOIN pg_stat_ssl USING (pid)
          WHERE application_name = 'agency-site' AND datname = $1`,
        [new URL(database).pathname.slice(1)],
      );
      encrypted = rows.map((row) => row.ssl);
      return encrypted.length;
    })
    .toBeGreaterThan(0);
  expect(encrypted).not.toContain(false);
}

/** The line the server logs, and `/healthz` says, when the certificate check refuses the server. */
const UNTRUSTED =
  /^unreachable: the server's certificate is not trusted \((UNABLE_TO_GET_ISSUER_CERT_LOCALLY|UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT)\)$/;

test("sslmode=verify-full with the CA as sslrootcert connects, over TLS", async ({
  certificates,
  postgres,
  database,
}) => {
  expect(await databaseStateOf(`${database}?sslmode=verify-full&sslrootcert=${certificates.ca}`)).toBe("ok");
  await expectOnlyTls(postgres, database);
});

test("sslmode=verify-full with another CA is refused, and the log line says why", async ({
  certificates,
  database,
}) => {
  expect(
    await databaseStateOf(`${database}?sslmode=verify-full&sslrootcert=${certificates.otherCa}`),
  ).toMatch(UNTRUSTED);
  expect(server?.output()).toMatch(
    /database: cannot connect to DATABASE_URL \(host 127\.0\.0\.1, port \d+, database \w+\): the server's certificate is not trusted \([A-Z_]+\); pages are served/,
  );
});

test("sslmode=verify-full with the CA but another host name than the certificate's is refused", async ({
  certificates,
  database,
}) => {
  const byName = database.replace("@127.0.0.1:", "@localhost:");
  expect(await databaseStateOf(`${byName}?sslmode=verify-full&sslrootcert=${certificates.ca}`)).toMatch(
    /^unreachable: the server's certificate does not name this host \(ERR_TLS_CERT_ALTNAME_INVALID\)$/,
  );
});

test("sslmode=require checks the certificate: without the CA it is refused", async ({ database }) => {
  expect(await databaseStateOf(`${database}?sslmode=require`)).toMatch(UNTRUSTED);
});

test("PGSSLMODE=verify-full with the CA as NODE_EXTRA_CA_CERTS connects, over TLS", async ({
  certificates,
  postgres,
  database,
}) => {
  const env = { PGSSLMODE: "verify-full", NODE_EXTRA_CA_CERTS: certificates.ca };
  expect(await databaseStateOf(database, env)).toBe("ok");
  await expectOnlyTls(postgres, database);
});

test("PGSSLMODE=require without the CA is refused", async ({ database }) => {
  expect(await databaseStateOf(database, { PGSSLMODE: "require" })).toMatch(UNTRUSTED);
});

test("sslmode=no-verify encrypts without checking the certificate", async ({ postgres, database }) => {
  expect(await databaseStateOf(`${database}?sslmode=no-verify`)).toBe("ok");
  await expectOnlyTls(postgres, database);
});
