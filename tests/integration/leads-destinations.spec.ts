import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test as base, expect } from "@playwright/test";
import type { DeliveryRecord, LeadDestinations } from "../../app/leads/lead";
import { validEnquiry } from "../support/enquiry-page";
import { importLeadsInto, leadsCli, writeLeadWith } from "../support/lead-fixtures";
import { startPostgres, type TestPostgres } from "../support/postgres";
import { type RunningServer, startServer } from "../support/server-process";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver";

// `npm run leads` and its destinations, the built command on both stores: each destination's
// state in the table and in --json, --state by the lead's own state, `retry --to` one
// destination, and `erase` naming where a lead may be held and telling the webhook (`lead.erased`,
// checked at a real loopback receiver with the standardwebhooks package's `verify`). The leads
// are written as the store keeps them, and for PostgreSQL imported by the product's own import.

const test = base.extend<object, { postgres: TestPostgres }>({
  postgres: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern; empty means none
    async ({}, use) => {
      const postgres = await startPostgres("pg-e2e-leads-destinations");
      await use(postgres);
      await postgres.dispose();
    },
    { scope: "worker", timeout: 90_000 },
  ],
});

const folders: string[] = [];
const servers: RunningServer[] = [];
const receivers: WebhookReceiver[] = [];
test.afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.stop()));
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function newStoreDir() {
  const folder = mkdtempSync(join(tmpdir(), "leads-destinations-"));
  folders.push(folder);
  return join(folder, "data");
}

const SECRET = `whsec_${randomBytes(32).toString("base64")}`;
const HOUR = 60 * 60_000;

const AN_HOUR_AGO = Date.now() - HOUR;

/** One destination's record, as the deliverer would have left it an hour ago. */
function record(state: DeliveryRecord["state"], attempts: number, lastError: string | null = null) {
  const at = new Date(AN_HOUR_AGO).toISOString();
  return { state, attempts, lastError, nextAttemptAt: at, queuedAt: at };
}

type Cli = (args: string[], env?: Record<string, string>) => Promise<{ stdout: string; stderr: string }>;

/** A store the command reads: the environment it runs with and, for the server, the same. */
interface Store {
  env: Record<string, string>;
  cli: Cli;
}

/**
 * The two stores, each holding what `seed` writes into a data folder: the folder itself, or a
 * database the folder's leads were imported into (the command's own folder then empty).
 */
const STORES: { name: string; open(postgres: TestPostgres, seed: (dir: string) => void): Promise<Store> }[] =
  [
    {
      name: "data folder",
      async open(_postgres, seed) {
        const dir = newStoreDir();
        seed(dir);
        const env = { ENQUIRY_STORE_DIR: dir };
        return { env, cli: (args, more = {}) => leadsCli(dir, args, { ...env, ...more }) };
      },
    },
    {
      name: "PostgreSQL",
      async open(postgres, seed) {
        const dir = newStoreDir();
        seed(dir);
        const url = await postgres.createDatabase();
        await importLeadsInto(url, dir);
        const empty = newStoreDir();
        const env = { ENQUIRY_STORE_DIR: empty, DATABASE_URL: url };
        return { env, cli: (args, more = {}) => leadsCli(empty, args, { ...env, ...more }) };
      },
    },
  ];

/** What the command prints as one JSON line per lead, by the visitor's name. */
async function jsonByName(cli: Cli, args: string[] = []) {
  const { stdout } = await cli(["--json", ...args]);
  const leads = stdout
    .trim()
    .split("\n")
    .filter(Boolean)
    .map(
      (line) =>
        JSON.parse(line) as {
          id: string;
          name: string;
          state: string;
          destinations: LeadDestinations;
        },
    );
  return new Map(leads.map((lead) => [lead.name, lead]));
}

/** The table's `destinations` cell on the row of `name` (the last column: the rest of the row). */
function destinationsCell(table: string, name: string) {
  const lines = table.split("\n");
  const header = lines.find((line) => line.startsWith("time ")) ?? "";
  const row = lines.find((line) => line.includes(name)) ?? "";
  return row.slice(header.indexOf("destinations")).trim();
}

/** Runs the command expecting it to fail: its exit code and what it said. */
async function refused(cli: Cli, args: string[], env?: Record<string, string>) {
  return cli(args, env).then(
    (done) => ({ code: 0, ...done }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
}

for (const kind of STORES) {
  test.describe(`npm run leads on the ${kind.name}`, () => {
    test("shows each destination's state, with attempts and last error for what is not sent, in the table and --json; --state filters by the lead's own state", async ({
      postgres,
    }) => {
      const names = {
        webhookRetrying: "Asha webhook retrying",
        emailjsFailed: "Ravi emailjs failed",
        webhookOnlyFailed: "Meera webhook only",
        inbox: "Kiran inbox",
      };
      const records: Record<string, LeadDestinations> = {
        [names.webhookRetrying]: { emailjs: record("sent", 1), webhook: record("pending", 3, "HTTP 502") },
        [names.emailjsFailed]: {
          emailjs: record("failed", 1, "EmailJS answered 412: Gmail_API: Invalid grant"),
          webhook: record("sent", 2),
        },
        [names.webhookOnlyFailed]: { webhook: record("failed", 1, "HTTP 410") },
        [names.inbox]: {},
      };
      const { cli } = await kind.open(postgres, (dir) => {
        for (const [name, destinations] of Object.entries(records)) {
          writeLeadWith(dir, { enquiry: validEnquiry({ name }), destinations });
        }
      });

      const table = (await cli([])).stdout;
      expect(destinationsCell(table, names.webhookRetrying)).toBe(
        "emailjs sent · webhook pending (3, HTTP 502)",
      );
      expect(destinationsCell(table, names.emailjsFailed)).toBe(
        "emailjs failed (1, EmailJS answered 412: Gmail_API: Invalid grant) · webhook sent",
      );
      expect(destinationsCell(table, names.webhookOnlyFailed)).toBe("webhook failed (1, HTTP 410)");
      expect(destinationsCell(table, names.inbox)).toBe("");

      const json = await jsonByName(cli);
      for (const [name, destinations] of Object.entries(records)) {
        expect(json.get(name)?.destinations, name).toEqual(destinations);
      }
      expect([...json.values()].map((lead) => [lead.name, lead.state]).sort()).toEqual(
        [
          [names.emailjsFailed, "failed"],
          [names.inbox, "inbox"],
          [names.webhookOnlyFailed, "failed"],
          [names.webhookRetrying, "pending"],
        ].sort(),
      );

      // The lead's own state: failed at one destination and pending at none.
      expect([...(await jsonByName(cli, ["--state", "failed"])).keys()].sort()).toEqual(
        [names.emailjsFailed, names.webhookOnlyFailed].sort(),
      );
      const pending = (await cli(["--state", "pending"])).stdout;
      expect(pending).toContain(names.webhookRetrying);
      expect(pending).not.toContain(names.emailjsFailed);
      expect((await cli(["--state", "sent"])).stdout).toMatch(/^No sent leads in /);
    });

    test("retry ID --to webhook puts only the failed webhook delivery back in the queue, and the running server then delivers it there once", async ({
      postgres,
    }) => {
      test.setTimeout(90_000);
      let lead = "";
      let emailjsOnly = "";
      const { env, cli } = await kind.open(postgres, (dir) => {
        lead = writeLeadWith(dir, {
          enquiry: validEnquiry({ name: "Asha retry webhook" }),
          destinations: {
            emailjs: record("sent", 1),
            webhook: record("failed", 4, "HTTP 503 (gave up after 72 h of retries)"),
          },
        }).id;
        emailjsOnly = writeLeadWith(dir, {
          enquiry: validEnquiry({ name: "Ravi emailjs only" }),
          destinations: { emailjs: record("failed", 1, "EmailJS answered 412: Gmail_API: Invalid grant") },
        }).id;
      });

      // What is not the lead's, or did not fail: one line each, exit 1, nothing written.
      const notFailed = await refused(cli, ["retry", lead, "--to", "emailjs"]);
      expect(notFailed.code).toBe(1);
      expect(notFailed.stderr).toBe(`leads: ${lead} is sent at emailjs, not failed: nothing to retry\n`);
      const notIts = await refused(cli, ["retry", emailjsOnly, "--to", "webhook"]);
      expect(notIts.code).toBe(1);
      expect(notIts.stderr).toBe(
        `leads: ${emailjsOnly} does not go to webhook (it goes to emailjs): nothing to retry\n`,
      );
      const unknown = await refused(cli, ["retry", lead, "--to", "crm"]);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toMatch(/^leads: --to takes a destination: emailjs, webhook; usage: /);
      expect((await jsonByName(cli)).get("Asha retry webhook")?.state).toBe("failed");

      const before = Date.now();
      expect((await cli(["retry", lead, "--to", "webhook"])).stdout).toMatch(
        /^1 lead back in the queue \(webhook\): the running server delivers it within a few seconds/,
      );
      const queued = (await jsonByName(cli)).get("Asha retry webhook");
      expect(queued?.state).toBe("pending");
      expect(queued?.destinations.emailjs).toEqual(record("sent", 1));
      expect(queued?.destinations.webhook).toMatchObject({ state: "pending", attempts: 4 });
      // A fresh 72 h of retries, due at once.
      const webhook = queued?.destinations.webhook as DeliveryRecord;
      expect(Date.parse(webhook.queuedAt)).toBeGreaterThanOrEqual(before - 1_000);
      expect(Date.parse(webhook.nextAttemptAt)).toBeLessThanOrEqual(Date.now());
      // The other lead's EmailJS failure is left as it was.
      expect((await jsonByName(cli)).get("Ravi emailjs only")?.state).toBe("failed");

      // A server with the webhook (and no EmailJS): the lead reaches the receiver, signed, once.
      const receiver = await startWebhookReceiver({ secret: SECRET });
      receivers.push(receiver);
      const server = await startServer({
        env: { ...env, LEAD_WEBHOOK_URL: receiver.url, LEAD_WEBHOOK_SECRET: SECRET },
      });
      servers.push(server);
      await expect
        .poll(async () => (await jsonByName(cli)).get("Asha retry webhook")?.state, { timeout: 30_000 })
        .toBe("sent");
      expect(receiver.requests).toHaveLength(1);
      expect(receiver.requests[0]?.verified, receiver.requests[0]?.verifyError).toBe(true);
      expect(JSON.parse(receiver.requests[0]?.body ?? "{}")).toMatchObject({
        type: "lead.received",
        data: { id: lead, name: "Asha retry webhook" },
      });
    });

    test("retry ID retries every failed destination of the lead; retry --failed --to webhook, the webhook's failures of every lead", async ({
      postgres,
    }) => {
      const failed = (cause: string) => record("failed", 2, cause);
      const { cli } = await kind.open(postgres, (dir) => {
        const write = (name: string, destinations: LeadDestinations) =>
          writeLeadWith(dir, { enquiry: validEnquiry({ name }), destinations });
        write("both failed", { emailjs: failed("EmailJS answered 412"), webhook: failed("HTTP 410") });
        write("webhook failed", { emailjs: record("sent", 1), webhook: failed("HTTP 404") });
        write("emailjs failed", { emailjs: failed("EmailJS answered 412") });
      });
      const states = async () =>
        Object.fromEntries(
          [...(await jsonByName(cli)).values()].map((lead) => [
            lead.name,
            Object.fromEntries(Object.entries(lead.destinations).map(([name, each]) => [name, each.state])),
          ]),
        );

      expect((await cli(["retry", "--failed", "--to", "webhook"])).stdout).toMatch(
        /^2 leads back in the queue \(webhook\): /,
      );
      expect(await states()).toEqual({
        "both failed": { emailjs: "failed", webhook: "pending" },
        "webhook failed": { emailjs: "sent", webhook: "pending" },
        "emailjs failed": { emailjs: "failed" },
      });
      const id = (await jsonByName(cli)).get("both failed")?.id as string;
      expect((await cli(["retry", id])).stdout).toMatch(/^1 lead back in the queue \(emailjs\): /);
      expect((await states())["both failed"]).toEqual({ emailjs: "pending", webhook: "pending" });
      const again = await refused(cli, ["retry", id]);
      expect(again.code).toBe(1);
      expect(again.stderr).toBe(`leads: ${id} is pending, not failed: nothing to retry\n`);
    });

    test("erase names every destination an attempt began at, and tells the webhook with a signed lead.erased, retried, naming its host only", async ({
      postgres,
    }) => {
      const person = { email: "meera.erase@example.in", countryCode: "91", phoneNumber: "9811100077" };
      const ids: Record<string, string> = {};
      const { cli } = await kind.open(postgres, (dir) => {
        // Received a minute apart, in this order: the command names them oldest first.
        const write = (name: string, destinations: LeadDestinations, email = person.email) => {
          const receivedAt = new Date(AN_HOUR_AGO + Object.keys(ids).length * 60_000).toISOString();
          const enquiry = validEnquiry({ ...person, email, name });
          ids[name] = writeLeadWith(dir, { enquiry, destinations, receivedAt }).id;
        };
        write("both", { emailjs: record("sent", 1), webhook: record("sent", 1) });
        write("retrying", { emailjs: record("sent", 1), webhook: record("pending", 2, "HTTP 502") });
        write("refused", { emailjs: record("failed", 1, "EmailJS answered 400: bad template") });
        write("inbox", {});
        write("other", { webhook: record("sent", 1) }, "somebody.else@example.in");
      });
      const receiver = await startWebhookReceiver({ secret: SECRET });
      receivers.push(receiver);
      // A receiver that fails once, then takes it: the command tries again.
      receiver.answer({ status: 503 });
      const webhookEnv = {
        LEAD_WEBHOOK_URL: `${receiver.url}?token=path-secret-77`,
        LEAD_WEBHOOK_SECRET: SECRET,
      };
      const host = new URL(receiver.url).host;

      const erased = await cli(["erase", person.email], webhookEnv);
      const mailbox = (id?: string) =>
        `${id}: may hold it, cannot be told: emailjs — delete its mail from the agency's mailbox.`;
      // Every destination an attempt began at, refused ones too; none for the inbox lead.
      expect(erased.stdout.split("\n")).toEqual([
        "Erased 4 leads of that person.",
        mailbox(ids.both),
        `${ids.both}: may hold it, told: webhook (${host} took lead.erased, 2 attempts).`,
        mailbox(ids.retrying),
        `${ids.retrying}: may hold it, told: webhook (${host} took lead.erased, 1 attempt).`,
        mailbox(ids.refused),
        "",
      ]);
      expect(erased.stdout + erased.stderr).not.toContain("path-secret-77");
      expect(erased.stdout + erased.stderr).not.toContain(person.email);
      expect(receiver.requests.map((request) => request.verified)).toEqual([true, true, true]);
      const bodies = receiver.requests.map((request) => JSON.parse(request.body));
      expect(bodies.map((body) => body.data)).toEqual([
        { id: ids.both },
        { id: ids.both },
        { id: ids.retrying },
      ]);
      expect(bodies.every((body) => body.type === "lead.erased")).toBe(true);
      // One event of one lead keeps its id through the retry; another lead's is its own.
      const eventIds = receiver.requests.map((request) => request.headers["webhook-id"]);
      expect(eventIds[0]).toBe(eventIds[1]);
      expect(eventIds[2]).not.toBe(eventIds[0]);
      expect([...(await jsonByName(cli)).keys()]).toEqual(["other"]);

      // By id, with a receiver that refuses it for good: said, exit 1.
      receiver.answer({ status: 410 });
      const refusedErase = await refused(cli, ["erase", ids.other as string], webhookEnv);
      expect(refusedErase.code).toBe(1);
      expect(refusedErase.stdout).toBe(
        `Erased lead ${ids.other}.\n${ids.other}: may hold it, not told: webhook (${host} did not take lead.erased: HTTP 410, 1 attempt) — erase it there by hand.\n`,
      );
      expect(receiver.requests).toHaveLength(4);
      expect(await jsonByName(cli)).toEqual(new Map());
    });
  });
}

test("erase from a shell without the webhook's variables says the webhook was not told, to erase it there by hand, and exits 1", async () => {
  const dir = newStoreDir();
  const lead = writeLeadWith(dir, {
    enquiry: validEnquiry({ email: "no.webhook@example.in" }),
    destinations: { webhook: record("sent", 1) },
  });
  const { code, stdout } = await refused((args) => leadsCli(dir, args), ["erase", lead.id]);
  expect(code).toBe(1);
  expect(stdout).toBe(
    `Erased lead ${lead.id}.\n${lead.id}: may hold it, not told: webhook (LEAD_WEBHOOK_URL and LEAD_WEBHOOK_SECRET are not set in this shell) — erase it at the webhook's receiver by hand.\n`,
  );
  expect(await leadsCli(dir, ["--json"])).toMatchObject({ stdout: "" });
});
