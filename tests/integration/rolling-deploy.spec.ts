import type { Browser, TestInfo } from "@playwright/test";
import { describeMigration } from "../../app/db/migrate.server";
import { readMigrations } from "../../app/db/migrations.server";
import { SCAN_MS } from "../../app/leads/delivery/delivery.server";
import type { FakeEmailJs } from "../support/fake-emailjs";
import { figures } from "../support/fault-watch";
import { requestsFor } from "../support/lead-fixtures";
import { fakeHostFor, replicaTest } from "../support/postgres-fixtures";
import { expectThroughout, windowCovering } from "../support/quiet-window";
import { RELEASES, type ReleaseCommit, startReleaseReplica, unpackRelease } from "../support/release-server";
import { leadsInDatabase, type Replica, sentBy, startReplica } from "../support/replicas";
import { appliedMigrations, enquire, senderTurns } from "../support/rolling-deploy";

// A rolling deploy on one PostgreSQL: two replicas of a previous release's built server
// (tests/fixtures/releases) serve and store leads while EmailJS is down; a replica of this
// build starts beside them, migrates the database they use while they keep serving, and one old
// replica stops. Every enquiry a visitor sent (a browser without JavaScript, posting the form
// each release renders) is kept and reaches EmailJS exactly once, whichever release stored it
// and whichever replica delivered it. The deploy to per-lead destinations (a webhook this build
// alone knows, the deliverer lock passing both ways) is rolling-deploy-destinations.spec.ts.

const test = replicaTest(fakeHostFor(6));
const { expect } = test;
test.describe.configure({ mode: "default", timeout: 240_000 });

/** The sends that reached EmailJS since `from` (an index into its requests), per name. */
const sendsSince = (fake: FakeEmailJs, from: number, names: string[]) =>
  names.map(
    (name) => requestsFor(fake, name).filter((request) => fake.requests.indexOf(request) >= from).length,
  );

/** What a test runs on: the fixtures of `replicaTest` and the browser. */
interface DeployFixtures {
  browser: Browser;
  fake: FakeEmailJs;
  folder: string;
  databaseUrl: string;
  serverNode: string;
}

/** A rolling deploy done: every enquiry sent during it, and the replica of this build, still running. */
interface RollingDeploy {
  /** In the order sent; `by` names the replica that stored it: `old-1`, `old-2` (release `from`) or `new-1`. */
  leads: { name: string; by: string }[];
  current: Replica;
  stop(): Promise<void>;
}

/**
 * Two replicas of release `from` (`old-1`, `old-2`) migrate a new database and store leads
 * while EmailJS is down; `new-1`, of this build, starts and migrates it while they keep serving; each stores a
 * lead; `old-1` stops; EmailJS comes back and every lead reaches it once, from one deliverer at
 * a time; `old-2` stops and `new-1` delivers a last lead. Checked at each step; `new-1` is left
 * running for the caller's own checks (stop it with `stop()`).
 */
async function deployFrom(
  from: ReleaseCommit,
  { browser, fake, folder, databaseUrl, serverNode }: DeployFixtures,
  testInfo: TestInfo,
): Promise<RollingDeploy> {
  const started = Date.now();
  const release = unpackRelease(from);
  const replicas: Replica[] = [];
  const leads: RollingDeploy["leads"] = [];
  const names = () => leads.map((lead) => lead.name);
  const send = async (replica: Replica, text: string) => {
    const name = await enquire(browser, replica, `${text} ${replica.name} ${Date.now().toString(36)}`);
    leads.push({ name, by: replica.name });
    return name;
  };
  const stop = async (replica: Replica) => {
    await replica.server.stop();
    replicas.splice(replicas.indexOf(replica), 1);
  };
  const options = { databaseUrl, fake, folder, node: serverNode };
  try {
    fake.respondWith({ kind: "status", status: 503, text: "Service Unavailable" });

    const [old1, old2] =
      await test.step(`two replicas of ${from} migrate the database and keep leads while EmailJS is down`, async () => {
        // One after the other: the first one migrates and takes the deliverer's lock.
        const first = await startReleaseReplica(release, "old-1", options);
        replicas.push(first);
        const second = await startReleaseReplica(release, "old-2", options);
        replicas.push(second);
        for (const replica of [first, second]) await send(replica, "Before");
        // Each was tried and refused: stored, pending, retried later.
        await expect.poll(() => names().filter((name) => requestsFor(fake, name).length === 0)).toEqual([]);
        return [first, second];
      });
    const before = await appliedMigrations(databaseUrl);

    const current =
      await test.step("a replica of this build starts on their database and migrates it", async () => {
        const replica = await startReplica("new-1", options);
        replicas.push(replica);
        const expected = readMigrations();
        const known = new Map(before.map((row) => [row.version, row.checksum]));
        const outcome = {
          applied: expected.filter((migration) => !known.has(migration.version)).map((m) => m.version),
          adopted: expected
            .filter((migration) => known.get(migration.version) === null)
            .map((m) => m.version),
          edited: [],
        };
        // The release before SQL migrations recorded none of its checksums: this build adopts them.
        expect(outcome.adopted.length > 0, "migrations to adopt").toBe(
          from === RELEASES.typescriptMigrations,
        );
        for (const line of describeMigration(outcome)) {
          await expect.poll(() => replica.server.output().split("\n")).toContain(line);
        }
        expect(replica.server.output()).not.toContain("was edited after it was applied");
        expect(await appliedMigrations(databaseUrl)).toEqual(
          expected.map((migration) => ({ version: migration.version, checksum: migration.checksum })),
        );
        figures(
          testInfo,
          "rolling deploy",
          `${from} → this build: migrations ${outcome.adopted.join(", ") || "none"} adopted, ${outcome.applied.join(", ") || "none"} applied`,
        );
        return replica;
      });

    await test.step("the old replicas keep serving and storing on the migrated schema, beside the new one", async () => {
      for (const replica of [old1, old2, current]) await send(replica, "During");
      const stored = await leadsInDatabase(databaseUrl, folder);
      expect(stored.map((lead) => lead.name).sort()).toEqual(names().sort());
      expect(stored.every((lead) => lead.state === "pending")).toBe(true);
    });

    await test.step("the first old replica stops while leads wait: its deliverer's lock passes on", () =>
      stop(old1));

    const deliveredFrom = fake.requests.length;
    await test.step("EmailJS comes back: every lead is delivered once", async () => {
      const since = Date.now();
      fake.respondWith({ kind: "ok" });
      await expect
        .poll(() => sendsSince(fake, deliveredFrom, names()).filter((count) => count === 0).length, {
          timeout: 120_000,
          intervals: [250],
        })
        .toBe(0);
      const seconds = ((Date.now() - since) / 1000).toFixed(1);
      await expect
        .poll(async () =>
          (await leadsInDatabase(databaseUrl, folder)).filter((lead) => lead.state !== "sent"),
        )
        .toEqual([]);
      expect(sendsSince(fake, deliveredFrom, names())).toEqual(names().map(() => 1));
      const senders = [...new Set(fake.requests.slice(deliveredFrom).map(sentBy))];
      figures(
        testInfo,
        "rolling deploy",
        `${from}: ${leads.length} leads delivered once each in ${seconds} s by ${senders.join(" and ")}`,
      );
    });

    await test.step("the last old replica stops: the new one delivers, and no lead goes out again", async () => {
      await stop(old2);
      const last = await send(current, "After");
      await expect.poll(() => requestsFor(fake, last).map(sentBy)).toEqual(["new-1"]);
      await expectThroughout(windowCovering(SCAN_MS), () => {
        expect(sendsSince(fake, deliveredFrom, names())).toEqual(names().map(() => 1));
      });
      expect((await leadsInDatabase(databaseUrl, folder)).map((lead) => lead.name).sort()).toEqual(
        names().sort(),
      );
      // Both releases take one deliverer's lock: one replica at a time sends, whichever release
      // it runs, and a replica that handed the lock on never sends again.
      const turns = senderTurns(fake);
      expect(turns, "who sent to EmailJS, turn by turn").toEqual([...new Set(turns)]);
      figures(testInfo, "rolling deploy", `${from}: senders to EmailJS in turn: ${turns.join(", ")}`);
    });
    figures(
      testInfo,
      "rolling deploy",
      `${from}: the deploy took ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    return {
      leads,
      current,
      async stop() {
        await Promise.all(replicas.map((replica) => replica.server.stop()));
        release.dispose();
      },
    };
  } catch (error) {
    await Promise.all(replicas.map((replica) => replica.server.stop()));
    release.dispose();
    throw error;
  }
}

for (const from of [RELEASES.typescriptMigrations, RELEASES.emailJsOnly] as ReleaseCommit[]) {
  test(`a rolling deploy from release ${from}: the new build migrates the database the old replicas keep serving on, and every lead either release stored is delivered once`, async ({
    browser,
    fake,
    folder,
    databaseUrl,
    serverNode,
  }, testInfo) => {
    const deploy = await deployFrom(from, { browser, fake, folder, databaseUrl, serverNode }, testInfo);
    await deploy.stop();
  });
}
