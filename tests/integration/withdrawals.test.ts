import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Database } from "~/db/database.server";
import type { DeliveryResult } from "~/destinations/destination";
import type { Enquiry } from "~/lead-parts/enquiry";
import { leadReference } from "~/lead-parts/reference";
import type { LeadStore } from "~/leads/contract.server";
import { createWithdrawalNotices } from "~/leads/delivery/withdrawal-notices.server";
import { createFolderLeadStore } from "~/leads/folder/store.server";
import { createFolderWithdrawals, withdrawalsFolder } from "~/leads/folder/withdrawals.server";
import type { Lead } from "~/leads/lead";
import { createPostgresLeadStore } from "~/leads/postgres/store.server";
import { createPostgresWithdrawals } from "~/leads/postgres/withdrawals.server";
import { afterAttempt } from "~/leads/retry-policy";
import type { NoticeTarget, Withdrawal, WithdrawalStore } from "~/leads/withdrawals.server";
import { cleanupHookMs, createCleanups } from "../support/cleanups";
import { openMigratedDatabase } from "../support/migrated-database";
import { startPostgres, type TestPostgres } from "../support/postgres";

let postgres: TestPostgres;
beforeAll(async () => {
  postgres = await startPostgres("pg-withdrawals");
}, 60_000);
afterAll(async () => {
  await postgres?.dispose();
}, 60_000);

const cleanups = createCleanups();
afterEach(async () => {
  vi.restoreAllMocks();
  await cleanups.run();
}, cleanupHookMs(3));

const asha: Enquiry = {
  name: "Asha Rao",
  email: "Asha@Example.in",
  countryCode: "91",
  phoneNumber: "9876543210",
  message: "A clinic booking app",
};
const other: Enquiry = { ...asha, name: "Ravi", email: "ravi@example.in" };

/** A clock the test moves by hand. */
function fakeClock(start = "2026-12-01T10:00:00Z") {
  let time = Date.parse(start);
  return {
    now: () => new Date(time),
    advance: (ms: number) => {
      time += ms;
    },
  };
}

interface Place {
  leads: LeadStore;
  withdrawals(now?: () => Date): WithdrawalStore;
  /** Whether anything the withdrawals keep holds `text` (what a visitor typed must never be kept). */
  keeps(text: string): Promise<boolean>;
  /** Lead `id`'s withdrawal record cut short by a crash (the folder only: PostgreSQL commits it whole). */
  cutShort?(id: string, at: Date): Promise<void>;
}

const kinds: { name: string; place(): Promise<Place> }[] = [
  {
    name: "the data folder",
    async place() {
      const root = await mkdtemp(join(tmpdir(), "withdrawals-"));
      cleanups.add(`the folder ${root} is removed`, () => rm(root, { recursive: true, force: true }));
      const folder = join(root, "leads");
      await mkdir(folder, { recursive: true });
      const leads = createFolderLeadStore({ folder, log: () => {} });
      const withdrawals = withdrawalsFolder(root);
      return {
        leads,
        withdrawals: (now) =>
          createFolderWithdrawals({ store: leads, folder: withdrawals, now, log: () => {} }),
        async keeps(text) {
          const names = await readdir(withdrawals).catch(() => [] as string[]);
          for (const name of names)
            if ((await readFile(join(withdrawals, name), "utf8")).includes(text)) return true;
          return false;
        },
        async cutShort(id, at) {
          await mkdir(withdrawals, { recursive: true });
          const record = { leadId: id, withdrawnAt: at.toISOString(), holding: null, chat: true };
          await writeFile(join(withdrawals, `${id}.json`), JSON.stringify(record));
        },
      };
    },
  },
  {
    name: "PostgreSQL",
    async place() {
      const database: Database = await openMigratedDatabase(await postgres.createDatabase());
      cleanups.add("the pool closes", () => database.stop());
      return {
        leads: createPostgresLeadStore({ database, log: () => {} }),
        withdrawals: (now) => createPostgresWithdrawals({ database, now }),
        async keeps(text) {
          const { rows } = await database.query<{ count: number }>(
            `SELECT (SELECT count(*) FROM withdrawals WHERE withdrawals::text ILIKE '%' || $1 || '%')
                  + (SELECT count(*) FROM withdrawal_notices WHERE withdrawal_notices::text ILIKE '%' || $1 || '%')
                  + (SELECT count(*) FROM withdrawal_days WHERE withdrawal_days::text ILIKE '%' || $1 || '%') AS count`,
            [text],
          );
          return Number(rows[0]?.count) > 0;
        },
      };
    },
  },
];

const wanted = { stillWanted: () => true };

/** A lead whose EmailJS send began (its mail may be in the agency's mailbox) and the webhook took. */
async function delivered(leads: LeadStore, enquiry: Enquiry): Promise<Lead> {
  const lead = await leads.add(enquiry, ["emailjs", "webhook"]);
  const at = lead.receivedAt;
  const record = { lastError: null, nextAttemptAt: at, queuedAt: at };
  await leads.saveDelivery(lead, "emailjs", { ...record, state: "sent", attempts: 1 });
  await leads.saveDelivery(lead, "webhook", { ...record, state: "sent", attempts: 1 });
  return lead;
}

/** Tells every due notice once with `answers` per target, as the loop does; the attempts made, in order. */
async function tellAll(
  store: WithdrawalStore,
  answers: Partial<Record<NoticeTarget, DeliveryResult>>,
  now = () => new Date(),
): Promise<[NoticeTarget, string][]> {
  const told: [NoticeTarget, string][] = [];
  for (;;) {
    const outcome = await store.tellNext(
      Object.keys(answers) as NoticeTarget[],
      async (withdrawal: Withdrawal, target, record) => {
        told.push([target, withdrawal.leadId]);
        return afterAttempt(record, answers[target] ?? { ok: true }, now());
      },
    );
    if (!outcome.told) return told;
  }
}

describe.each(kinds)("withdrawals in $name", (kind) => {
  it("a wrong reference or e-mail erases nothing and keeps nothing; a match erases every lead of the address and records each", async () => {
    const place = await kind.place();
    const first = await delivered(place.leads, asha);
    const second = await place.leads.add({ ...asha, email: "asha@example.in", message: "Second" }, []);
    const spam = await place.leads.quarantine(
      { ...asha, email: " ASHA@example.in", message: "Caught" },
      "honeypot",
    );
    const ravi = await delivered(place.leads, other);
    const withdrawals = place.withdrawals();
    const at = new Date();
    const options = { at, chat: true, ...wanted };

    const otherReference = leadReference(ravi.id);
    for (const request of [
      { reference: leadReference(first.id), address: "ravi@example.in" },
      { reference: otherReference, address: "asha@example.in" },
      { reference: "NRM-0000-0000", address: "asha@example.in" },
    ]) {
      expect(await withdrawals.withdraw(request, options)).toEqual({ erased: [] });
    }
    expect((await place.leads.list()).length).toBe(4);
    expect(await withdrawals.open()).toEqual([]);
    expect(await withdrawals.perDay(new Date(0))).toEqual([]);

    const outcome = await withdrawals.withdraw(
      { reference: leadReference(second.id), address: "asha@example.in" },
      options,
    );
    expect(outcome).not.toBe("given up");
    const erased = outcome === "given up" ? [] : outcome.erased;
    expect(new Set(erased)).toEqual(new Set([first.id, second.id, spam.id]));
    expect((await place.leads.list()).map((lead) => lead.id)).toEqual([ravi.id]);
    expect(await place.leads.has(first.id)).toBe(false);

    // Only the lead whose mail may sit in the mailbox is the team's to clean up; each is told of.
    const open = await withdrawals.open();
    expect(open.map((withdrawal) => [withdrawal.leadId, withdrawal.holding])).toEqual([
      [first.id, ["emailjs", "webhook"]],
    ]);
    expect(open[0]?.notices.webhook?.state).toBe("pending");
    expect(open[0]?.notices.chat?.state).toBe("pending");
    expect(await withdrawals.perDay(new Date(0))).toEqual([
      { day: at.toISOString().slice(0, 10), withdrawals: 1 },
    ]);
    for (const typed of ["asha@example.in", "Asha Rao", "9876543210", leadReference(second.id)]) {
      expect(await place.keeps(typed), typed).toBe(false);
    }
  });

  it("tells each target once, retries what it could not take, and a destination's give-up is the team's again", async () => {
    const place = await kind.place();
    const clock = fakeClock();
    const lead = await delivered(place.leads, asha);
    const withdrawals = place.withdrawals(clock.now);
    const at = clock.now();
    await withdrawals.withdraw(
      { reference: leadReference(lead.id), address: "asha@example.in" },
      { at, chat: true, ...wanted },
    );

    const busy: DeliveryResult = { ok: false, retry: true, error: { status: 503, cause: "HTTP 503" } };
    expect(await tellAll(withdrawals, { webhook: busy, chat: { ok: true } }, clock.now)).toEqual([
      ["chat", lead.id],
      ["webhook", lead.id],
    ]);
    // Nothing more is due until the backoff has passed; the chat took it and is never told again.
    expect(await tellAll(withdrawals, { webhook: { ok: true }, chat: { ok: true } }, clock.now)).toEqual([]);
    const [waiting] = await withdrawals.open();
    expect(waiting?.notices.webhook).toMatchObject({ state: "pending", attempts: 1, lastError: "HTTP 503" });
    expect(waiting?.notices.chat).toMatchObject({ state: "sent", attempts: 1 });

    clock.advance(16 * 60_000);
    const gone: DeliveryResult = { ok: false, retry: false, error: { status: 410, cause: "HTTP 410" } };
    expect(await tellAll(withdrawals, { webhook: gone }, clock.now)).toEqual([["webhook", lead.id]]);
    await withdrawals.markDone(lead.id, clock.now());
    expect(await withdrawals.open()).toEqual([]);
    // Refused after the team's clean-up was done: the webhook's copy is theirs to erase now.
    const second = await delivered(place.leads, other);
    await withdrawals.withdraw(
      { reference: leadReference(second.id), address: "ravi@example.in" },
      { at: clock.now(), chat: false, ...wanted },
    );
    expect(await withdrawals.markDone(second.id, clock.now())).toBe("done");
    expect(await withdrawals.markDone(second.id, clock.now())).toBe("already done");
    expect(await withdrawals.markDone("5a4f3c1e-0b1d-4c7e-9f2a-000000000006", clock.now())).toBe("unknown");
    expect(await tellAll(withdrawals, { webhook: gone }, clock.now)).toEqual([["webhook", second.id]]);
    expect((await withdrawals.open()).map((withdrawal) => withdrawal.leadId)).toEqual([second.id]);

    // Done, and nothing left to tell: pruned, its id gone.
    await withdrawals.markDone(second.id, clock.now());
    await withdrawals.prune();
    expect(await place.keeps(lead.id)).toBe(false);
    expect(await place.keeps(second.id)).toBe(false);
    expect(await withdrawals.perDay(new Date(0))).toEqual([{ day: "2026-12-01", withdrawals: 2 }]);
  });

  it("a lead that reached no mailbox is done from the start, and only its webhook is told", async () => {
    const place = await kind.place();
    const lead = await place.leads.add(asha, ["webhook"]);
    const at = lead.receivedAt;
    await place.leads.saveDelivery(lead, "webhook", {
      state: "sent",
      attempts: 1,
      lastError: null,
      nextAttemptAt: at,
      queuedAt: at,
    });
    const untried = await place.leads.add({ ...asha, message: "Not sent yet" }, ["emailjs"]);
    const withdrawals = place.withdrawals();
    await withdrawals.withdraw(
      { reference: leadReference(lead.id), address: "asha@example.in" },
      { at: new Date(), chat: true, ...wanted },
    );
    expect(await withdrawals.open()).toEqual([]);
    expect(await tellAll(withdrawals, { webhook: { ok: true }, chat: { ok: true } })).toEqual([
      ["webhook", lead.id],
    ]);
    expect(await place.leads.has(untried.id)).toBe(false);
  });

  it("the loop tells in the background once woken, and only where this process may tell", async () => {
    const place = await kind.place();
    const lead = await delivered(place.leads, asha);
    const withdrawals = place.withdrawals();
    await withdrawals.withdraw(
      { reference: leadReference(lead.id), address: "asha@example.in" },
      { at: new Date(), chat: false, ...wanted },
    );
    const heard: string[] = [];
    let allowed = false;
    const mayTell = vi.fn(() => allowed);
    const log = vi.fn();
    const loop = createWithdrawalNotices({
      store: withdrawals,
      tellers: {
        webhook: async (withdrawal) => {
          heard.push(withdrawal.leadId);
          return { ok: true };
        },
      },
      mayTell,
      log,
      scanMs: 50,
    });
    cleanups.add("the notice loop stops", () => loop.stop());
    loop.start();
    // Several rounds looked and were not allowed to tell (the folder: another process delivers).
    await vi.waitFor(() => expect(mayTell.mock.calls.length).toBeGreaterThanOrEqual(3));
    expect(heard).toEqual([]);
    allowed = true;
    loop.wake();
    await vi.waitFor(() => expect(heard).toEqual([lead.id]));
    expect(log).toHaveBeenCalledWith(expect.stringContaining('"event":"withdrawal notice"'));
  });
});

describe("a withdrawal in PostgreSQL", () => {
  it("given up before its COMMIT erases nothing and records nothing", async () => {
    const [, kind] = kinds;
    const place = await (kind as (typeof kinds)[number]).place();
    const lead = await delivered(place.leads, asha);
    const withdrawals = place.withdrawals();
    const outcome = await withdrawals.withdraw(
      { reference: leadReference(lead.id), address: "asha@example.in" },
      { at: new Date(), chat: true, stillWanted: () => false },
    );
    expect(outcome).toBe("given up");
    expect(await place.leads.has(lead.id)).toBe(true);
    expect(await withdrawals.open()).toEqual([]);
    expect(await withdrawals.perDay(new Date(0))).toEqual([]);
  });
});

describe("a withdrawal in the data folder", () => {
  it("cut short by a crash between its record and its erasure is finished a minute later, what may hold it assumed", async () => {
    const [kind] = kinds;
    const place = await (kind as (typeof kinds)[number]).place();
    const clock = fakeClock();
    const kept = await place.leads.add(asha, ["emailjs"]);
    const gone = await place.leads.add(other, []);
    await place.leads.erase(gone);
    const withdrawals = place.withdrawals(clock.now);
    await place.cutShort?.(kept.id, clock.now());
    await place.cutShort?.(gone.id, clock.now());
    // Still under way (or cut short a moment ago): left alone.
    expect(await tellAll(withdrawals, { webhook: { ok: true } }, clock.now)).toEqual([]);
    expect(await place.leads.has(kept.id)).toBe(true);
    clock.advance(61_000);
    const told = await tellAll(withdrawals, { webhook: { ok: true }, chat: { ok: true } }, clock.now);
    expect(await place.leads.has(kept.id)).toBe(false);
    // The kept lead was never sent anywhere: nothing to tell, nothing to clean up. The one gone
    // before may have reached any destination.
    expect(told).toEqual([
      ["chat", gone.id],
      ["webhook", gone.id],
    ]);
    const open = await withdrawals.open();
    expect(open.map((withdrawal) => [withdrawal.leadId, withdrawal.holding])).toEqual([
      [gone.id, ["emailjs", "webhook"]],
    ]);
  });
});
