import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createDelivererLock } from "~/leads/lock.server";
import { createLeadStore, StoreFullError } from "~/leads/store.server";

const enquiry = {
  name: "Asha Rao",
  email: "asha@example.in",
  countryCode: "91",
  phoneNumber: "9876543210",
  message: 'Line one\nLine two, with "quotes" and नमस्ते',
};

let root: string;
let folder: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "lead-store-"));
  folder = join(root, "data", "leads");
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A clock the test moves by hand. */
function fakeClock(start = "2026-11-01T10:00:00Z") {
  let time = Date.parse(start);
  return {
    now: () => new Date(time),
    advance: (ms: number) => {
      time += ms;
    },
  };
}

const DAY = 24 * 60 * 60_000;

describe("lead store", () => {
  it("appends each lead as its own complete file, creating the folder", async () => {
    const clock = fakeClock();
    const store = createLeadStore({ folder, now: clock.now, log: () => {} });
    const first = await store.add(enquiry, "pending");
    clock.advance(1000);
    await store.add({ ...enquiry, name: "Second" }, "inbox");
    const files = (await readdir(folder)).sort();
    expect(files).toHaveLength(2);
    expect(files[0]).toBe(`${Date.parse("2026-11-01T10:00:00Z")}-${first.id}.json`);
    expect(JSON.parse(await readFile(join(folder, files[0] ?? ""), "utf8"))).toEqual({
      id: first.id,
      receivedAt: "2026-11-01T10:00:00.000Z",
      state: "pending",
      attempts: 0,
      lastError: null,
      nextAttemptAt: "2026-11-01T10:00:00.000Z",
      queuedAt: "2026-11-01T10:00:00.000Z",
      enquiry,
    });
    expect(store.leads().map((lead) => [lead.enquiry.name, lead.state])).toEqual([
      ["Asha Rao", "pending"],
      ["Second", "inbox"],
    ]);
  });

  it("keeps 200 parallel leads as 200 intact files and no temporary file", async () => {
    const store = createLeadStore({ folder, log: () => {} });
    const big = "x".repeat(1500);
    await Promise.all(
      Array.from({ length: 200 }, (_, index) =>
        store.add({ ...enquiry, name: `Visitor ${index}`, message: big }, "pending"),
      ),
    );
    const files = await readdir(folder);
    expect(files).toHaveLength(200);
    const replayed = await createLeadStore({ folder, log: () => {} }).scan();
    expect(new Set(replayed.map((lead) => lead.enquiry.name)).size).toBe(200);
  });

  it("replays every lead and its latest state in a new process, oldest first", async () => {
    const clock = fakeClock();
    const writer = createLeadStore({ folder, now: clock.now, log: () => {} });
    const first = await writer.add(enquiry, "pending");
    clock.advance(5);
    const second = await writer.add({ ...enquiry, name: "Later" }, "pending");
    await writer.save({ ...first, state: "sent", attempts: 2 });
    const reader = createLeadStore({ folder, create: false, log: () => {} });
    const leads = await reader.scan();
    expect(leads.map((lead) => [lead.id, lead.state, lead.attempts])).toEqual([
      [first.id, "sent", 2],
      [second.id, "pending", 0],
    ]);
    // A change made by another process shows at the next scan; so does a removal.
    await writer.save({ ...second, state: "failed", attempts: 1, lastError: "EmailJS answered 400: bad" });
    await writer.remove(first);
    expect((await reader.scan()).map((lead) => [lead.id, lead.state])).toEqual([[second.id, "failed"]]);
  });

  it("skips a write torn by a crash with one log line, removes it, and keeps every lead", async () => {
    const lines: string[] = [];
    const clock = fakeClock();
    const store = createLeadStore({ folder, now: clock.now, log: (line) => lines.push(line) });
    await store.add(enquiry, "pending");
    await store.add({ ...enquiry, name: "Second" }, "pending");
    const torn = join(folder, ".tmp-0b7c3f5e-1d2a-4c1b-9d8e-2f3a4b5c6d7e-abcd1234");
    await writeFile(torn, '{"id":"0b7c3f5e-1d2a-4c1b-9d8e-2f3a4b5c6d7e","receivedAt":"2026-11-01T10:00');

    // A temporary file that young may be another process's write in progress: left alone.
    const restarted = createLeadStore({ folder, now: clock.now, log: (line) => lines.push(line) });
    expect(await restarted.scan()).toHaveLength(2);
    expect(lines).toEqual([]);

    const old = new Date(Date.now() - 5 * 60_000);
    await utimes(torn, old, old);
    clock.advance(0);
    expect(await createLeadStore({ folder, log: (line) => lines.push(line) }).scan()).toHaveLength(2);
    expect(lines).toEqual([expect.stringMatching(/removed .*\.tmp-0b7c3f5e.*torn by a crash/)]);
    expect(await readdir(folder)).toHaveLength(2);
  });

  it("skips a damaged lead file with one log line, however often it scans", async () => {
    const lines: string[] = [];
    const store = createLeadStore({ folder, log: (line) => lines.push(line) });
    await store.add(enquiry, "pending");
    const damaged = join(folder, "1795000000000-0b7c3f5e-1d2a-4c1b-9d8e-2f3a4b5c6d7e.json");
    await writeFile(damaged, '{"id":"0b7c3f5e');
    expect(await store.scan()).toHaveLength(1);
    expect(await store.scan()).toHaveLength(1);
    expect(lines).toEqual([expect.stringContaining("is not a complete lead record; skipped")]);
  });

  it("removes sent, failed and inbox leads after the retention period, never pending ones", async () => {
    const clock = fakeClock();
    const store = createLeadStore({ folder, now: clock.now, log: () => {} });
    const sent = await store.add({ ...enquiry, name: "sent" }, "pending");
    await store.save({ ...sent, state: "sent", attempts: 1 });
    const failed = await store.add({ ...enquiry, name: "failed" }, "pending");
    await store.save({ ...failed, state: "failed", attempts: 1 });
    await store.add({ ...enquiry, name: "inbox" }, "inbox");
    await store.add({ ...enquiry, name: "pending" }, "pending");
    clock.advance(89 * DAY);
    const young = await store.add({ ...enquiry, name: "young" }, "inbox");
    expect(await store.prune({ days: 90, spamDays: 30 })).toBe(0);
    clock.advance(1 * DAY + 1);
    expect(await store.prune({ days: 90, spamDays: 30 })).toBe(3);
    const left = await createLeadStore({ folder, log: () => {} }).scan();
    expect(left.map((lead) => lead.enquiry.name)).toEqual(["pending", "young"]);
    expect(left[1]?.id).toBe(young.id);
  });

  it("refuses a lead past its size cap, and accepts again once one is removed", async () => {
    const store = createLeadStore({ folder, maxLeads: 2, log: () => {} });
    const first = await store.add(enquiry, "inbox");
    await store.add(enquiry, "inbox");
    await expect(store.add(enquiry, "inbox")).rejects.toBeInstanceOf(StoreFullError);
    await store.remove(first);
    await expect(store.add(enquiry, "inbox")).resolves.toMatchObject({ state: "inbox" });
  });

  it("quarantines spam outside the cap, at most N per reason, the oldest of that reason going first", async () => {
    const clock = fakeClock();
    const lines: string[] = [];
    const store = createLeadStore({
      folder,
      maxLeads: 1,
      maxSpamPerReason: 2,
      now: clock.now,
      log: (line) => lines.push(line),
    });
    const names: string[] = [];
    for (const name of ["h1", "h2", "h3"]) {
      clock.advance(1000);
      names.push((await store.quarantine({ ...enquiry, name }, "honeypot")).id);
    }
    clock.advance(1000);
    await store.quarantine({ ...enquiry, name: "b1" }, "blocklist");
    // The quarantine never fills the store: a real lead is still kept.
    clock.advance(1000);
    await store.add({ ...enquiry, name: "real" }, "inbox");
    const left = await createLeadStore({ folder, log: () => {} }).scan();
    expect(left.map((lead) => [lead.enquiry.name, lead.state, lead.reason])).toEqual([
      ["h2", "spam", "honeypot"],
      ["h3", "spam", "honeypot"],
      ["b1", "spam", "blocklist"],
      ["real", "inbox", undefined],
    ]);
    expect(lines).toEqual([
      `lead store: the quarantine holds 2 honeypot leads, its limit; removed the oldest, ${names[0]} (received 2026-11-01T10:00:01.000Z)`,
    ]);
  });

  it("removes quarantined leads after their own retention, and erasure records after the lead retention", async () => {
    const clock = fakeClock();
    const store = createLeadStore({ folder, now: clock.now, log: () => {} });
    await store.quarantine({ ...enquiry, name: "spam" }, "headless");
    const erased = await store.add({ ...enquiry, name: "erased" }, "inbox");
    await store.erase(erased);
    await store.add({ ...enquiry, name: "inbox" }, "inbox");
    clock.advance(30 * DAY + 1);
    expect(await store.prune({ days: 90, spamDays: 30 })).toBe(1);
    expect((await store.scan()).map((lead) => lead.enquiry.name)).toEqual(["inbox"]);
    expect(await readdir(join(root, "data", "erased"))).toEqual([erased.id]);
    await utimes(join(root, "data", "erased", erased.id), new Date(0), new Date(0));
    await store.prune({ days: 90, spamDays: 30 });
    expect(await readdir(join(root, "data", "erased"))).toEqual([]);
  });

  it("never writes an erased lead back, even from a process that still holds it", async () => {
    const server = createLeadStore({ folder, log: () => {} });
    const lead = await server.add(enquiry, "pending");
    const operator = createLeadStore({ folder, create: false, log: () => {} });
    const [found] = await operator.scan();
    if (!found) throw new Error("the operator found no lead");
    await operator.erase(found);
    expect(await readdir(folder)).toEqual([]);
    expect(await server.isErased(lead)).toBe(true);
    expect(await server.save({ ...lead, state: "sent", attempts: 1 })).toBe(false);
    expect(await readdir(folder)).toEqual([]);
    expect(server.leads()).toEqual([]);
  });

  it("finishes an erase that stopped between its record and the unlink", async () => {
    const store = createLeadStore({ folder, log: () => {} });
    const kept = await store.add({ ...enquiry, name: "kept" }, "inbox");
    const lead = await store.add(enquiry, "inbox");
    await mkdir(join(root, "data", "erased"));
    await writeFile(join(root, "data", "erased", lead.id), "");
    expect((await createLeadStore({ folder, create: false, log: () => {} }).scan()).map((l) => l.id)).toEqual(
      [kept.id],
    );
    expect((await store.scan()).map((l) => l.id)).toEqual([kept.id]);
    expect(await readdir(folder)).toHaveLength(1);
  });

  it("fails to add when the folder cannot exist (its parent is a file), and says why", async () => {
    await writeFile(join(root, "data"), "a file where a folder must be");
    const store = createLeadStore({ folder, log: () => {} });
    await expect(store.add(enquiry, "pending")).rejects.toThrow(/ENOTDIR|EEXIST/);
    await expect(store.scan()).rejects.toThrow();
  });
});

describe("deliverer lock", () => {
  it("lets one holder in; another waits until the heartbeat goes stale, then takes over", async () => {
    const path = join(root, "deliverer.lock");
    let time = Date.now();
    const first = createDelivererLock({ path, now: () => time });
    const second = createDelivererLock({ path, now: () => time });
    expect(await first.acquire()).toBe(true);
    // The first holder lives in another container (PID 1 there too): only its heartbeat tells.
    const holder = JSON.parse(await readFile(path, "utf8"));
    await writeFile(path, JSON.stringify({ ...holder, host: "another-container", pid: 1 }));
    expect(await second.acquire()).toBe(false);
    time += 60_000;
    expect(await first.heartbeat()).toBe(true);
    expect(await second.acquire()).toBe(false);
    const stale = new Date(time - 31_000);
    await utimes(path, stale, stale);
    expect(await second.acquire()).toBe(true);
    expect(await first.heartbeat()).toBe(false);
    expect(await first.holds()).toBe(false);
    await second.release();
    expect(await first.acquire()).toBe(true);
  });

  it("takes over at once from a process on this host that is gone (SIGKILL)", async () => {
    const path = join(root, "deliverer.lock");
    await writeFile(path, JSON.stringify({ token: "x", host: hostname(), pid: 2 ** 22 + 7 }));
    expect(await createDelivererLock({ path }).acquire()).toBe(true);
  });
});
