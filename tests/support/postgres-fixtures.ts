import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FakeEmailJs, startFakeEmailJs } from "./fake-emailjs";
import { processTest } from "./fixtures";
import { startPostgres, type TestPostgres } from "./postgres";

/**
 * Fixtures of the tests that run replicas on PostgreSQL: one real PostgreSQL and one HTTPS
 * EmailJS fake per worker (on `fakeHost`, a loopback address of the test file's own, so files
 * running in parallel never share a fake, and of the worker's own: the two projects may run one
 * file at once), a fresh database and folder per test.
 */
export function replicaTest(fakeHost: string) {
  return processTest.extend<
    { fake: FakeEmailJs; folder: string; databaseUrl: string },
    { postgres: TestPostgres; fakeEmailJs: FakeEmailJs }
  >({
    postgres: [
      // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern; empty means none
      async ({}, use, workerInfo) => {
        const postgres = await startPostgres(`pg-e2e-${workerInfo.workerIndex}`);
        await use(postgres);
        await postgres.dispose();
      },
      { scope: "worker", timeout: 120_000 },
    ],
    fakeEmailJs: [
      // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern; empty means none
      async ({}, use, workerInfo) => {
        const fake = await startFakeEmailJs(onWorkersOwnAddress(fakeHost, workerInfo.parallelIndex));
        await use(fake);
        await fake.close();
      },
      { scope: "worker" },
    ],
    fake: async ({ fakeEmailJs }, use) => {
      fakeEmailJs.reset();
      await use(fakeEmailJs);
      fakeEmailJs.reset();
    },
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern; empty means none
    folder: async ({}, use) => {
      const folder = mkdtempSync(join(tmpdir(), "replicas-"));
      await use(folder);
      rmSync(folder, { recursive: true, force: true });
    },
    databaseUrl: async ({ postgres }, use) => {
      await postgres.start();
      await use(await postgres.createDatabase());
    },
  });
}

/** `host` with its third octet set to the worker's parallel index: workers running together never share it. */
function onWorkersOwnAddress(host: string, parallelIndex: number): string {
  const [a, b, , d] = host.split(".");
  return `${a}.${b}.${parallelIndex}.${d}`;
}

/** A loopback address for a file's EmailJS fake, moved along with FAKE_EMAILJS_HOST. */
export function fakeHostFor(secondOctet: number): string {
  return (process.env.FAKE_EMAILJS_HOST ?? "127.0.0.2").replace(/^127\.0\./, `127.${secondOctet}.`);
}
