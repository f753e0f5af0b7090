import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { validEnquiry } from "../support/enquiry-page";
import { figures } from "../support/fault-watch";
import { postEnquiry, requestsFor } from "../support/lead-fixtures";
import { fakeHostFor, replicaTest } from "../support/postgres-fixtures";
import { leadsInDatabase, type Replica, type ReplicaOptions, startReplica } from "../support/replicas";
import { databaseStatus, healthDetails } from "../support/server-process";
import {
  type ReceivedRequest,
  startWebhookReceiver,
  type WebhookReceiver,
} from "../support/webhook-receiver";

// Issue 51's item 4 on the built server and a real PostgreSQL: an enquiry has one identity from
// its first write (docs/decisions/045-one-identity-per-enquiry.md), so the spool's seams never
// double a lead nor answer 500. (a) PostgreSQL frozen with the spool unwritable: each enquiry is
// sent directly, once, and its given-up insert never lands. (b) `leads` locked, the same enquiry
// posted to two replicas and again after the lock: one lead, one reference, one delivery per
// destination. (c) A stored enquiry posted again while the database is frozen or locked: its
// notice, never a 500.

const test = replicaTest(fakeHostFor(51));
const { expect } = test;
test.describe.configure({ mode: "default", timeout: 180_000 });

const SECRET = `whsec_${Buffer.from("lead-identity-spec-secret-32-byt").toString("base64")}`;

/** The reference a 303's landing URL carries. */
function referenceOf(response: Response): string | undefined {
  const location = response.headers.get("location") ?? "";
  return /[?&]enquiry=[\w-]+\.[0-9a-z]+\.(NRM-[0-9A-Z]{4}-[0-9A-Z]{4})\.[\w-]{22}(?:#|$)/.exec(location)?.[1];
}

/** What a post of the enquiry form came to: its status and the reference it shows. */
async function send(url: string, values: ReturnType<typeof validEnquiry>) {
  const response = await postEnquiry(url, values);
  await response.arrayBuffer();
  return { status: response.status, reference: referenceOf(response) };
}

/** The webhook's `lead.received` deliveries of the lead named `name`. */
const hooksFor = (requests: readonly ReceivedRequest[], name: string) =>
  requests.filter((request) => {
    const event = JSON.parse(request.body) as { type: string; data: { name?: string } };
    return event.type === "lead.received" && event.data.name === name;
  });

test.describe("one identity per enquiry", () => {
  let hook: WebhookReceiver;
  const started: Replica[] = [];
  test.beforeEach(async () => {
    hook = await startWebhookReceiver({ secret: SECRET });
  });
  test.afterEach(async ({ postgres }, testInfo) => {
    postgres.resume();
    await Promise.all(started.map((replica) => replica.server.stop()));
    for (const replica of started.splice(0))
      writeFileSync(testInfo.outputPath(`${replica.name}.log`), replica.server.output());
    await hook.close();
  });

  const replica = async (name: string, options: Omit<ReplicaOptions, "env">) => {
    const one = await startReplica(name, {
      ...options,
      env: { LEAD_WEBHOOK_URL: hook.url, LEAD_WEBHOOK_SECRET: SECRET, ENQUIRY_FLOOD_LIMIT: "0" },
    });
    started.push(one);
    await expect.poll(async () => databaseStatus(await healthDetails(one.server.url))).toBe("ok");
    return one;
  };

  test("(a) PostgreSQL frozen and the spool unwritable: each enquiry is sent directly once, and its given-up insert never lands", async ({
    fake,
    folder,
    databaseUrl,
    postgres,
  }, testInfo) => {
    const site = await replica("replica-1", { databaseUrl, folder, fake });
    // A file where the spool's folder must be: the spool cannot be written, as on a full disk.
    mkdirSync(site.folder, { recursive: true });
    writeFileSync(join(site.folder, "spool"), "a file where the spool's folder must be");
    const names = Array.from({ length: 5 }, (_, index) => `Frozen ${index} ${Date.now().toString(36)}`);
    postgres.pause();
    const frozenAt = Date.now();
    let answers: { status: number; reference?: string }[];
    try {
      answers = await Promise.all(names.map((name) => send(site.server.url, validEnquiry({ name }))));
    } finally {
      postgres.resume();
    }
    const frozenMs = Date.now() - frozenAt;
    expect(answers.map((answer) => answer.status)).toEqual(names.map(() => 303));
    for (const name of names) {
      expect(requestsFor(fake, name), name).toHaveLength(1);
      expect(hooksFor(hook.requests, name), name).toHaveLength(1);
    }
    // A lead received after the thaw is delivered after any that landed late (the oldest go
    // first): once it has reached both destinations, a late insert would have been delivered too.
    const after = `After the thaw ${Date.now().toString(36)}`;
    expect((await send(site.server.url, validEnquiry({ name: after }))).status).toBe(303);
    await expect.poll(() => requestsFor(fake, after).length, { timeout: 60_000 }).toBe(1);
    await expect.poll(() => hooksFor(hook.requests, after).length, { timeout: 60_000 }).toBe(1);
    const stored = (await leadsInDatabase(databaseUrl, folder)).map((lead) => lead.name);
    expect(stored).toEqual([after]);
    for (const name of names) {
      expect(requestsFor(fake, name), name).toHaveLength(1);
      expect(hooksFor(hook.requests, name), name).toHaveLength(1);
    }
    figures(
      testInfo,
      "one identity (a)",
      `${names.length} enquiries during a ${(frozenMs / 1000).toFixed(1)} s freeze with the spool unwritable: ${answers.filter((answer) => answer.status === 303).length} answered 303, ${names.reduce((sum, name) => sum + requestsFor(fake, name).length, 0)} EmailJS sends, ${names.reduce((sum, name) => sum + hooksFor(hook.requests, name).length, 0)} webhook deliveries, ${stored.length - 1} stored late`,
    );
  });

  test("(b) leads locked, the same enquiry posted to two replicas and again after the lock: one lead, one reference, one delivery per destination", async ({
    fake,
    folder,
    databaseUrl,
  }, testInfo) => {
    const [one, two] = [
      await replica("replica-1", { databaseUrl, folder, fake }),
      await replica("replica-2", { databaseUrl, folder, fake }),
    ];
    if (!one || !two) throw new Error("no replicas");
    const values = validEnquiry({ name: `Locked ${Date.now().toString(36)}` });
    const locker = new pg.Client({ connectionString: databaseUrl });
    locker.on("error", () => {});
    await locker.connect();
    const answers: { status: number; reference?: string }[] = [];
    let lockedMs: number;
    try {
      await locker.query("BEGIN");
      await locker.query("LOCK TABLE leads IN ACCESS EXCLUSIVE MODE");
      const lockedAt = Date.now();
      answers.push(await send(one.server.url, values));
      answers.push(await send(two.server.url, values));
      await locker.query("COMMIT");
      lockedMs = Date.now() - lockedAt;
    } finally {
      await locker.end();
    }
    answers.push(await send(two.server.url, values));
    expect(answers.map((answer) => answer.status)).toEqual([303, 303, 303]);
    const [first] = answers;
    expect(first?.reference).toMatch(/^NRM-/);
    expect(answers.map((answer) => answer.reference)).toEqual(answers.map(() => first?.reference));

    await expect.poll(() => requestsFor(fake, values.name).length, { timeout: 60_000 }).toBe(1);
    await expect.poll(() => hooksFor(hook.requests, values.name).length, { timeout: 60_000 }).toBe(1);
    // Delivered means stored and no longer spooled anywhere: nothing is left to import twice.
    await expect
      .poll(async () => {
        const details = await Promise.all([one, two].map((each) => healthDetails(each.server.url)));
        return details.map((detail) => detail.leads.spooled ?? 0);
      })
      .toEqual([0, 0]);
    const leads = (await leadsInDatabase(databaseUrl, folder)).filter((lead) => lead.name === values.name);
    expect(leads).toHaveLength(1);
    expect(requestsFor(fake, values.name)).toHaveLength(1);
    expect(hooksFor(hook.requests, values.name)).toHaveLength(1);
    figures(
      testInfo,
      "one identity (b)",
      `leads locked ${(lockedMs / 1000).toFixed(1)} s; the same enquiry posted to replica-1, replica-2, and replica-2 after the lock: statuses ${answers.map((answer) => answer.status).join(", ")}, ${new Set(answers.map((answer) => answer.reference)).size} reference; ${leads.length} lead, ${requestsFor(fake, values.name).length} EmailJS send, ${hooksFor(hook.requests, values.name).length} webhook delivery`,
    );
  });

  for (const fault of ["frozen", "locked"] as const) {
    test(`(c) a stored enquiry posted again while the database is ${fault}: the first one's notice, 3 of 3, and one lead`, async ({
      fake,
      folder,
      databaseUrl,
      postgres,
    }, testInfo) => {
      const site = await replica("replica-1", { databaseUrl, folder, fake });
      const values = validEnquiry({ name: `Again ${fault} ${Date.now().toString(36)}` });
      const first = await send(site.server.url, values);
      expect(first.status).toBe(303);
      const locker = new pg.Client({ connectionString: databaseUrl });
      locker.on("error", () => {});
      await locker.connect();
      const again: { status: number; reference?: string }[] = [];
      try {
        if (fault === "frozen") postgres.pause();
        else {
          await locker.query("BEGIN");
          await locker.query("LOCK TABLE leads IN ACCESS EXCLUSIVE MODE");
        }
        for (let attempt = 0; attempt < 3; attempt += 1) again.push(await send(site.server.url, values));
      } finally {
        postgres.resume();
        await locker.query("ROLLBACK").catch(() => undefined);
        await locker.end();
      }
      expect(again).toEqual([first, first, first].map(() => ({ status: 303, reference: first.reference })));
      await expect.poll(() => requestsFor(fake, values.name).length, { timeout: 60_000 }).toBe(1);
      await expect.poll(() => hooksFor(hook.requests, values.name).length, { timeout: 60_000 }).toBe(1);
      const leads = (await leadsInDatabase(databaseUrl, folder)).filter((lead) => lead.name === values.name);
      expect(leads).toHaveLength(1);
      figures(
        testInfo,
        `one identity (c, ${fault})`,
        `posted again 3 times: statuses ${again.map((answer) => answer.status).join(", ")}, the first reference ${again.filter((answer) => answer.reference === first.reference).length} of 3; ${leads.length} lead, ${requestsFor(fake, values.name).length} EmailJS send`,
      );
    });
  }
});
