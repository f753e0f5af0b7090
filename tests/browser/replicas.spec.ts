import { rmSync } from "node:fs";
import { SCAN_MS } from "../../app/leads/delivery/delivery.server";
import { LEASE_SECONDS } from "../../app/leads/postgres/store.server";
import { NOTICE } from "../support/enquiry-page";
import { figures, postOne, sendsPerName } from "../support/fault-watch";
import { requestsFor } from "../support/lead-fixtures";
import { fakeHostFor, replicaTest } from "../support/postgres-fixtures";
import { expectCountStays, windowCovering } from "../support/quiet-window";
import { leadsInDatabase, type ReplicaSet, startReplicas } from "../support/replicas";
import { sendFrom } from "../support/round-robin-proxy";

// Three replicas of the built server on one PostgreSQL, each with a data folder of its own,
// behind a round-robin proxy: every promise one server keeps holds for the site as a whole.
// Each test counts what reached the fake EmailJS and what `npm run leads` reads in the database.

const test = replicaTest(fakeHostFor(2));
const { expect } = test;
test.describe.configure({ mode: "default", timeout: 180_000 });

/** Client addresses: each test connects to the proxy from loopback addresses of its own. */
const CLIENT = { limit: "127.9.0.1", throttle: "127.9.0.2", landing: "127.9.0.3", double: "127.9.0.4" };
const COUNT = 3;

/** Posts through the proxy from `from`; the outcome and which replica answered. */
function postVia(set: ReplicaSet, from: string, name: string) {
  return postOne(set.proxy.url, name, (body) =>
    sendFrom(from, `${set.proxy.url}/?index`, { body }).then((answer) => ({
      status: answer.status,
      text: answer.text,
      retryAfter: answer.headers["retry-after"] as string | undefined,
    })),
  );
}

test("one client's budget and a landing URL's notice hold across three replicas, and a double submit is one lead", async ({
  fake,
  folder,
  databaseUrl,
  serverNode,
}, testInfo) => {
  const set = await startReplicas({
    count: COUNT,
    databaseUrl,
    fake,
    folder,
    node: serverNode,
    env: { ENQUIRY_RATE_LIMIT: "5", ENQUIRY_RATE_WINDOW: "600" },
  });
  try {
    await test.step("18 enquiries from one client: 5 accepted, whichever replica answers", async () => {
      const outcomes = [];
      for (let index = 0; index < 18; index += 1)
        outcomes.push(await postVia(set, CLIENT.limit, `Budget ${index} ${Date.now().toString(36)}`));
      const statuses = outcomes.map((outcome) => outcome.status);
      expect(statuses.filter((status) => status === 303)).toHaveLength(5);
      expect(statuses.filter((status) => status === 429)).toHaveLength(13);
      // Each refusal says when to come back and keeps what the sender typed.
      for (const refused of outcomes.filter((outcome) => outcome.status === 429)) {
        expect(Number(refused.retryAfter)).toBeGreaterThan(0);
        expect(refused.fieldsKept).toBe(true);
      }
      expect(new Set(set.proxy.answeredBy.slice(-18)).size).toBe(COUNT);
      figures(
        testInfo,
        "replicas",
        `budget: 18 enquiries from one client, ${statuses.filter((s) => s === 303).length} accepted (limit 5)`,
      );
    });

    await test.step("a landing URL fetched 6 times shows its notice once", async () => {
      const body = new URLSearchParams({
        company_website: "",
        name: `Landing ${Date.now().toString(36)}`,
        email: "landing@example.in",
        countryCode: "91",
        phoneNumber: "9876543210",
        message: "Please call us about a booking app.",
      });
      const sent = await sendFrom(CLIENT.landing, `${set.proxy.url}/?index`, { body });
      expect(sent.status).toBe(303);
      const landing = String(sent.headers.location).replace(/#.*$/, "");
      expect(landing).toMatch(/^\/\?enquiry=/);
      const shown: boolean[] = [];
      for (let visit = 0; visit < 6; visit += 1) {
        const page = await sendFrom(CLIENT.landing, `${set.proxy.url}${landing}`);
        expect(page.status).toBe(200);
        shown.push(page.text.includes(NOTICE.sent));
      }
      expect(shown).toEqual([true, false, false, false, false, false]);
      figures(
        testInfo,
        "replicas",
        `landing URL: 6 visits, notice shown ${shown.filter(Boolean).length} time`,
      );
    });

    await test.step("the same enquiry posted twice in a row lands on two replicas and is one lead", async () => {
      const name = `Double ${Date.now().toString(36)}`;
      const first = await postVia(set, CLIENT.double, name);
      const second = await postVia(set, CLIENT.double, name);
      expect([first.status, second.status]).toEqual([303, 303]);
      const [one, two] = set.proxy.answeredBy.slice(-2);
      expect(one).not.toBe(two);
      await expect
        .poll(async () => (await leadsInDatabase(databaseUrl, folder)).filter((lead) => lead.name === name), {
          timeout: 30_000,
        })
        .toEqual([expect.objectContaining({ state: "sent" })]);
      await expectCountStays(windowCovering(SCAN_MS), () => requestsFor(fake, name).length, 1);
      figures(testInfo, "replicas", "double submit: 2 answers 303, 1 lead, 1 send");
    });
  } finally {
    await set.stop();
  }
});

test("one client's throttle holds across three replicas", async ({
  fake,
  folder,
  databaseUrl,
  serverNode,
}, testInfo) => {
  const set = await startReplicas({
    count: COUNT,
    databaseUrl,
    fake,
    folder,
    node: serverNode,
    env: { ENQUIRY_THROTTLE: "60" },
  });
  try {
    const outcomes = [];
    for (let index = 0; index < 3; index += 1)
      outcomes.push(await postVia(set, CLIENT.throttle, `Throttle ${index} ${Date.now().toString(36)}`));
    expect(outcomes.map((outcome) => outcome.status)).toEqual([303, 429, 429]);
    expect(outcomes.slice(1).every((outcome) => Number(outcome.retryAfter) > 0)).toBe(true);
    expect(new Set(set.proxy.answeredBy.slice(-3)).size).toBe(COUNT);
    figures(testInfo, "replicas", "throttle 60 s: 3 enquiries from one client on 3 replicas, 1 accepted");
  } finally {
    await set.stop();
  }
});

test("a replica stopped with its folder deleted, and a replica killed for good, lose no lead", async ({
  fake,
  folder,
  databaseUrl,
  serverNode,
}, testInfo) => {
  // Two steps, each of which may wait out a lease: more than the file's limit on a busy machine.
  test.setTimeout(480_000);
  const set = await startReplicas({ count: COUNT, databaseUrl, fake, folder, node: serverNode });
  const [, second, third] = set.replicas;
  if (!second || !third) throw new Error("three replicas expected");
  try {
    /** 30 enquiries answered 303 while EmailJS fails, spread over the replicas still in the rotation. */
    const postWhileFailing = async (label: string) => {
      fake.respondWith({ kind: "status", status: 500, text: "Internal Server Error" });
      const names: string[] = [];
      for (let index = 0; index < 30; index += 1) {
        const outcome = await postOne(set.proxy.url, `${label} ${index} ${Date.now().toString(36)}`);
        expect(outcome.status).toBe(303);
        names.push(outcome.name);
      }
      return names;
    };
    /** EmailJS back: every name arrives; returns the sends per lead and the seconds it took. */
    const deliverAll = async (names: string[]) => {
      const since = Date.now();
      fake.reset();
      await expect
        .poll(() => names.filter((name) => requestsFor(fake, name).length === 0).length, {
          timeout: 120_000,
          intervals: [250],
        })
        .toBe(0);
      const seconds = ((Date.now() - since) / 1000).toFixed(1);
      // A lead whose send the kill cut short can reach EmailJS and still be pending, claimed by
      // the dead replica: it is marked sent only once its lease has passed and a scan sends it
      // again. A fixed 30 s wait could not tell that late lead from a lost one on a busy machine.
      await expect
        .poll(
          async () =>
            (await leadsInDatabase(databaseUrl, folder))
              .filter((lead) => names.includes(lead.name))
              .filter((lead) => lead.state !== "sent").length,
          { timeout: LEASE_SECONDS * 1000 + 2 * SCAN_MS + 60_000 },
        )
        .toBe(0);
      return { sends: sendsPerName(fake, names), seconds };
    };

    await test.step("stopped and its folder deleted, as a platform scales down", async () => {
      const names = await postWhileFailing("Scale-down");
      set.proxy.remove(third.server.url);
      await third.server.stop();
      rmSync(third.folder, { recursive: true, force: true });
      const { sends, seconds } = await deliverAll(names);
      expect(sends).toEqual(names.map(() => 1));
      figures(
        testInfo,
        "replicas",
        `replica stopped, folder deleted: 30 of 30 leads delivered in ${seconds} s, sends per lead max ${Math.max(...sends)}`,
      );
    });

    await test.step("killed and never replaced, as a lost node", async () => {
      const names = await postWhileFailing("Lost node");
      second.server.process.kill("SIGKILL");
      const { sends, seconds } = await deliverAll(names);
      const senders = new Set(names.flatMap((name) => requestsFor(fake, name).map(set.sentBy)));
      // A lead the killed replica was sending may go out once more: at most one per crash.
      const duplicates = sends.reduce((sum, count) => sum + count - 1, 0);
      expect(Math.min(...sends)).toBe(1);
      expect(duplicates).toBeLessThanOrEqual(1);
      figures(
        testInfo,
        "replicas",
        `replica killed for good: 30 of 30 leads delivered in ${seconds} s by ${[...senders].join(" and ")}, ${duplicates} duplicate`,
      );
    });
  } finally {
    await set.stop();
  }
});
