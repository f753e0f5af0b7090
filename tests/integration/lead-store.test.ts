import { execFileSync, spawn, spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readdirSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, symlink, utimes, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { lockTargetFor } from "~/leads/folder/guard.server";
import { createFolderDelivererLock, readFolderLockHolder, STALE_AFTER_MS } from "~/leads/folder/lock.server";
import { createFolderLeadStore, StoreFullError } from "~/leads/folder/store.server";
import { type DeliveryRecord, type Lead, leadFileName } from "~/leads/lead";
import { emailjsAs } from "../support/lead-records";

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
    const store = createFolderLeadStore({ folder, now: clock.now, log: () => {} });
    const first = await store.add(enquiry, ["emailjs"]);
    clock.advance(1000);
    await store.add({ ...enquiry, name: "Second" }, []);
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
      destinations: {
        emailjs: {
          state: "pending",
          attempts: 0,
          lastError: null,
          nextAttemptAt: "2026-11-01T10:00:00.000Z",
          queuedAt: "2026-11-01T10:00:00.000Z",
        },
      },
      enquiry,
    });
    expect(store.leads().map((lead) => [lead.enquiry.name, lead.state])).toEqual([
      ["Asha Rao", "pending"],
      ["Second", "inbox"],
    ]);
  });

  it("keeps 200 parallel leads as 200 intact files and no temporary file", async () => {
    const store = createFolderLeadStore({ folder, log: () => {} });
    const big = "x".repeat(1500);
    await Promise.all(
      Array.from({ length: 200 }, (_, index) =>
        store.add({ ...enquiry, name: `Visitor ${index}`, message: big }, ["emailjs"]),
      ),
    );
    const files = await readdir(folder);
    expect(files).toHaveLength(200);
    const replayed = await createFolderLeadStore({ folder, log: () => {} }).scan();
    expect(new Set(replayed.map((lead) => lead.enquiry.name)).size).toBe(200);
  });

  it("replays every lead and its latest state in a new process, oldest first", async () => {
    const clock = fakeClock();
    const writer = createFolderLeadStore({ folder, now: clock.now, log: () => {} });
    const first = await writer.add(enquiry, ["emailjs"]);
    clock.advance(5);
    const second = await writer.add({ ...enquiry, name: "Later" }, ["emailjs"]);
    await writer.save(emailjsAs(first, { state: "sent", attempts: 2 }));
    const reader = createFolderLeadStore({ folder, create: false, log: () => {} });
    const leads = await reader.scan();
    expect(leads.map((lead) => [lead.id, lead.state, lead.destinations.emailjs?.attempts])).toEqual([
      [first.id, "sent", 2],
      [second.id, "pending", 0],
    ]);
    // A change made by another process shows at the next scan; so does a removal.
    await writer.save(
      emailjsAs(second, { state: "failed", attempts: 1, lastError: "EmailJS answered 400: bad" }),
    );
    await writer.remove(first);
    expect((await reader.scan()).map((lead) => [lead.id, lead.state])).toEqual([[second.id, "failed"]]);
  });

  it("skips a write torn by a crash with one log line, removes it, and keeps every lead", async () => {
    const lines: string[] = [];
    const clock = fakeClock();
    const store = createFolderLeadStore({ folder, now: clock.now, log: (line) => lines.push(line) });
    await store.add(enquiry, ["emailjs"]);
    await store.add({ ...enquiry, name: "Second" }, ["emailjs"]);
    const torn = join(folder, ".tmp-0b7c3f5e-1d2a-4c1b-9d8e-2f3a4b5c6d7e-abcd1234");
    await writeFile(torn, '{"id":"0b7c3f5e-1d2a-4c1b-9d8e-2f3a4b5c6d7e","receivedAt":"2026-11-01T10:00');

    // A temporary file that young may be another process's write in progress: left alone.
    const restarted = createFolderLeadStore({ folder, now: clock.now, log: (line) => lines.push(line) });
    expect(await restarted.scan()).toHaveLength(2);
    expect(lines).toEqual([]);

    const old = new Date(Date.now() - 5 * 60_000);
    await utimes(torn, old, old);
    clock.advance(0);
    expect(await createFolderLeadStore({ folder, log: (line) => lines.push(line) }).scan()).toHaveLength(2);
    expect(lines).toEqual([expect.stringMatching(/removed .*\.tmp-0b7c3f5e.*torn by a crash/)]);
    expect(await readdir(folder)).toHaveLength(2);
  });

  it("skips a damaged lead file with one log line, however often it scans", async () => {
    const lines: string[] = [];
    const store = createFolderLeadStore({ folder, log: (line) => lines.push(line) });
    await store.add(enquiry, ["emailjs"]);
    const damaged = join(folder, "1795000000000-0b7c3f5e-1d2a-4c1b-9d8e-2f3a4b5c6d7e.json");
    await writeFile(damaged, '{"id":"0b7c3f5e');
    expect(await store.scan()).toHaveLength(1);
    expect(await store.scan()).toHaveLength(1);
    expect(lines).toEqual([expect.stringContaining("is not a complete lead record; skipped")]);
  });

  it("removes sent, failed and inbox leads after the retention period, never pending ones", async () => {
    const clock = fakeClock();
    const store = createFolderLeadStore({ folder, now: clock.now, log: () => {} });
    const sent = await store.add({ ...enquiry, name: "sent" }, ["emailjs"]);
    await store.save(emailjsAs(sent, { state: "sent", attempts: 1 }));
    const failed = await store.add({ ...enquiry, name: "failed" }, ["emailjs"]);
    await store.save(emailjsAs(failed, { state: "failed", attempts: 1 }));
    await store.add({ ...enquiry, name: "inbox" }, []);
    await store.add({ ...enquiry, name: "pending" }, ["emailjs"]);
    clock.advance(89 * DAY);
    const young = await store.add({ ...enquiry, name: "young" }, []);
    expect(await store.prune({ days: 90, spamDays: 30 })).toBe(0);
    clock.advance(1 * DAY + 1);
    expect(await store.prune({ days: 90, spamDays: 30 })).toBe(3);
    const left = await createFolderLeadStore({ folder, log: () => {} }).scan();
    expect(left.map((lead) => lead.enquiry.name)).toEqual(["pending", "young"]);
    expect(left[1]?.id).toBe(young.id);
  });

  it("refuses a lead past its size cap, and accepts again once one is removed", async () => {
    const store = createFolderLeadStore({ folder, maxLeads: 2, log: () => {} });
    const first = await store.add(enquiry, []);
    await store.add(enquiry, []);
    await expect(store.add(enquiry, [])).rejects.toBeInstanceOf(StoreFullError);
    await store.remove(first);
    await expect(store.add(enquiry, [])).resolves.toMatchObject({ state: "inbox" });
  });

  it("quarantines spam outside the cap, at most N per reason, the oldest of that reason going first", async () => {
    const clock = fakeClock();
    const lines: string[] = [];
    const store = createFolderLeadStore({
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
    await store.add({ ...enquiry, name: "real" }, []);
    const left = await createFolderLeadStore({ folder, log: () => {} }).scan();
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
    const store = createFolderLeadStore({ folder, now: clock.now, log: () => {} });
    await store.quarantine({ ...enquiry, name: "spam" }, "headless");
    const erased = await store.add({ ...enquiry, name: "erased" }, []);
    await store.erase(erased);
    await store.add({ ...enquiry, name: "inbox" }, []);
    clock.advance(30 * DAY + 1);
    expect(await store.prune({ days: 90, spamDays: 30 })).toBe(1);
    expect((await store.scan()).map((lead) => lead.enquiry.name)).toEqual(["inbox"]);
    expect(await readdir(join(root, "data", "erased"))).toEqual([erased.id]);
    await utimes(join(root, "data", "erased", erased.id), new Date(0), new Date(0));
    await store.prune({ days: 90, spamDays: 30 });
    expect(await readdir(join(root, "data", "erased"))).toEqual([]);
  });

  it("keeps a lead's source in its file, quarantined ones too; erase and retention take it with the lead", async () => {
    const clock = fakeClock();
    const store = createFolderLeadStore({ folder, now: clock.now, log: () => {} });
    const source = { landing: "/", parameters: { utm_source: "newsletter", gclid: "Cj0KCQ" } };
    const lead = await store.add(enquiry, [], source);
    clock.advance(1000);
    const spam = await store.quarantine({ ...enquiry, name: "spam" }, "honeypot", source);
    const reread = await createFolderLeadStore({ folder, create: false, log: () => {} }).scan();
    expect(reread.map((each) => [each.id, each.source])).toEqual([
      [lead.id, source],
      [spam.id, source],
    ]);
    await store.erase(lead);
    clock.advance(30 * DAY + 1);
    await store.prune({ days: 90, spamDays: 30 });
    expect(await readdir(folder)).toEqual([]);
  });

  it("never writes an erased lead back, even from a process that still holds it", async () => {
    const server = createFolderLeadStore({ folder, log: () => {} });
    const lead = await server.add(enquiry, ["emailjs"]);
    const operator = createFolderLeadStore({ folder, create: false, log: () => {} });
    const [found] = await operator.scan();
    if (!found) throw new Error("the operator found no lead");
    await operator.erase(found);
    expect(await readdir(folder)).toEqual([]);
    expect(await server.isErased(lead)).toBe(true);
    expect(await server.save(emailjsAs(lead, { state: "sent", attempts: 1 }))).toBe(false);
    expect(await readdir(folder)).toEqual([]);
    expect(server.leads()).toEqual([]);
  });

  it("finishes an erase that stopped between its record and the unlink", async () => {
    const store = createFolderLeadStore({ folder, log: () => {} });
    const kept = await store.add({ ...enquiry, name: "kept" }, []);
    const lead = await store.add(enquiry, []);
    await mkdir(join(root, "data", "erased"));
    await writeFile(join(root, "data", "erased", lead.id), "");
    expect(
      (await createFolderLeadStore({ folder, create: false, log: () => {} }).scan()).map((l) => l.id),
    ).toEqual([kept.id]);
    expect((await store.scan()).map((l) => l.id)).toEqual([kept.id]);
    expect(await readdir(folder)).toHaveLength(1);
  });

  it("fails to add when the folder cannot exist (its parent is a file), and says why", async () => {
    await writeFile(join(root, "data"), "a file where a folder must be");
    const store = createFolderLeadStore({ folder, log: () => {} });
    await expect(store.add(enquiry, ["emailjs"])).rejects.toThrow(/ENOTDIR|EEXIST/);
    await expect(store.scan()).rejects.toThrow();
  });
});

describe("lead store entries, each on its own", () => {
  const log = () => {
    const lines: string[] = [];
    return { lines, log: (line: string) => lines.push(line) };
  };

  it("skips a directory, a symlink loop, a FIFO, an unreadable file and a `.tmp-` directory named like its own, with one line each, and keeps reading the rest", async () => {
    const { lines, log: logLine } = log();
    const store = createFolderLeadStore({ folder, log: logLine });
    const kept = await store.add(enquiry, ["emailjs"]);
    const named = (n: number) => `179500000000${n}-0b7c3f5e-1d2a-4c1b-9d8e-2f3a4b5c6d7${n}.json`;
    await mkdir(join(folder, named(1)));
    await symlink(named(2), join(folder, named(2)));
    execFileSync("mkfifo", [join(folder, named(3))]);
    await mkdir(join(folder, ".tmp-0b7c3f5e"));
    const unreadable = join(folder, named(4));
    await writeFile(unreadable, "{}");
    await chmod(unreadable, 0);
    const root = process.getuid?.() === 0;
    for (let scan = 0; scan < 3; scan += 1) {
      expect((await store.scan()).map((lead) => lead.id)).toEqual([kept.id]);
    }
    expect(lines.filter((line) => line.includes(named(1)))).toEqual([
      expect.stringContaining("is a directory, not a lead file; skipped: move it out of"),
    ]);
    expect(lines.filter((line) => line.includes(named(2)))).toEqual([
      expect.stringContaining("is a symbolic link, not a lead file"),
    ]);
    expect(lines.filter((line) => line.includes(named(3)))).toEqual([expect.stringContaining("is a FIFO")]);
    expect(lines.filter((line) => line.includes(".tmp-0b7c3f5e"))).toEqual([
      expect.stringContaining("is a directory, not a write of the store"),
    ]);
    // Root reads any file; anyone else is told how to fix it.
    expect(lines.filter((line) => line.includes(named(4)))).toEqual([
      root
        ? expect.stringContaining("is not a complete lead record")
        : expect.stringContaining("cannot be read (EACCES"),
    ]);
    expect(lines).toHaveLength(5);
  });

  it("never delivers a copy: a file whose name is not its lead's own, or a crafted id, is reported once and skipped", async () => {
    const { lines, log: logLine } = log();
    const store = createFolderLeadStore({ folder, log: logLine });
    const lead = await store.add(enquiry, ["emailjs"]);
    const original = join(folder, leadFileName(lead));
    const text = await readFile(original, "utf8");
    const copy = join(folder, `1795000000000-${lead.id}.json`);
    await writeFile(copy, text);
    const crafted = join(folder, "1795000000001-0b7c3f5e-1d2a-4c1b-9d8e-2f3a4b5c6d7e.json");
    await writeFile(crafted, JSON.stringify({ ...lead, id: "../../etc/passwd-1d2a-4c1b-9d8e-2f3a4b" }));
    for (let scan = 0; scan < 3; scan += 1) {
      expect((await store.scan()).map((found) => found.id)).toEqual([lead.id]);
    }
    expect(lines).toHaveLength(2);
    // Entries are read concurrently: the lines come in any order.
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringContaining(
          `${copy} holds lead ${lead.id}, whose file is ${leadFileName(lead)}; skipped and never delivered`,
        ),
        expect.stringContaining(`${crafted} is not a complete lead record`),
      ]),
    );
    // The lead is written back to the file it was read from, and only there.
    const reader = createFolderLeadStore({ folder, create: false, log: () => {} });
    const [read] = await reader.scan();
    await reader.save(emailjsAs(read as Lead, { state: "failed" }));
    expect(JSON.parse(await readFile(original, "utf8")).state).toBe("failed");
    expect(JSON.parse(await readFile(copy, "utf8")).state).toBe("pending");
    await expect(reader.save({ ...(read as Lead), id: randomUUID() })).rejects.toThrow(/was not read from/);
  });

  it("reads 3 000 leads 32 at a time", async () => {
    const store = createFolderLeadStore({ folder, log: () => {} });
    await store.add(enquiry, ["emailjs"]);
    const [first] = store.leads();
    const text = await readFile(join(folder, leadFileName(first as Lead)), "utf8");
    const base = Date.parse("2026-11-01T10:00:00Z");
    for (let index = 0; index < 3_000; index += 1) {
      const receivedAt = new Date(base + index).toISOString();
      const id = randomUUID();
      await writeFile(
        join(folder, leadFileName({ id, receivedAt })),
        JSON.stringify({ ...JSON.parse(text), id, receivedAt }),
      );
    }
    const handles = () => readdirSync("/proc/self/fd").length;
    const before = handles();
    let most = 0;
    const watch = setInterval(() => {
      most = Math.max(most, handles() - before);
    }, 1);
    const leads = await createFolderLeadStore({ folder, log: () => {} }).scan();
    clearInterval(watch);
    expect(leads).toHaveLength(3_001);
    expect(most).toBeLessThanOrEqual(40);
  }, 30_000);

  it("makes a deleted folder again at the next write, with a log line, and writes a lead's outcome back to its own name", async () => {
    const { lines, log: logLine } = log();
    const store = createFolderLeadStore({ folder, log: logLine });
    const lead = await store.add(enquiry, ["emailjs"]);
    await rm(folder, { recursive: true });
    expect(await store.scan()).toEqual([]);
    expect(await store.scan()).toEqual([]);
    expect(lines).toEqual([
      expect.stringContaining(
        "is missing (deleted while the server ran?); it is made again at the next write",
      ),
    ]);
    await store.save(emailjsAs(lead, { state: "sent", attempts: 1 }));
    const second = await store.add({ ...enquiry, name: "After" }, ["emailjs"]);
    expect(lines[1]).toContain("was missing (deleted while the server ran?); made it again");
    expect((await readdir(folder)).sort()).toEqual([leadFileName(lead), leadFileName(second)].sort());
  });

  it("forgets a lead whose file another process removed: it is never written back, and the store holds only what the folder holds", async () => {
    const deliverer = createFolderLeadStore({ folder, log: () => {} });
    const replica = createFolderLeadStore({ folder, log: () => {} });
    const kept = await deliverer.add(enquiry, ["emailjs"]);
    const removed = {
      ...(await deliverer.add({ ...enquiry, name: "Removed" }, ["emailjs"])),
      state: "sent" as const,
    };
    await deliverer.save(removed);
    await replica.scan();
    await deliverer.remove(removed);
    expect(await replica.scan()).toEqual([kept]);
    await expect(replica.save(emailjsAs(removed, { attempts: 2 }))).rejects.toThrow(/was not read from/);
    expect(await readdir(folder)).toEqual([leadFileName(kept)]);
    expect(await replica.save(emailjsAs(kept, { state: "sent", attempts: 1 }))).toBe(true);
  });

  it("the cap counts undelivered leads only: the oldest sent leads make room, with a log line; undelivered ones never do", async () => {
    const { lines, log: logLine } = log();
    const clock = fakeClock();
    const store = createFolderLeadStore({ folder, maxLeads: 3, now: clock.now, log: logLine });
    const sent = [];
    for (let index = 0; index < 3; index += 1) {
      clock.advance(1);
      const lead = await store.add({ ...enquiry, name: `sent ${index}` }, ["emailjs"]);
      await store.save(emailjsAs(lead, { state: "sent", attempts: 1 }));
      sent.push(lead);
    }
    expect(store.full()).toBe(false);
    clock.advance(1);
    await store.add({ ...enquiry, name: "pending" }, ["emailjs"]);
    expect(lines).toEqual([expect.stringContaining("removed the 1 oldest delivered lead from")]);
    expect(store.leads().map((lead) => lead.enquiry.name)).toEqual(["sent 1", "sent 2", "pending"]);
    clock.advance(1);
    await store.add({ ...enquiry, name: "inbox" }, []);
    clock.advance(1);
    const failed = await store.add({ ...enquiry, name: "failed" }, ["emailjs"]);
    await store.save(emailjsAs(failed, { state: "failed" }));
    expect(store.leads().map((lead) => lead.enquiry.name)).toEqual(["pending", "inbox", "failed"]);
    expect(store.full()).toBe(true);
    await expect(store.add(enquiry, ["emailjs"])).rejects.toBeInstanceOf(StoreFullError);
    expect(store.leads()).toHaveLength(3);
  });

  it("tells from its last write, or a probe, whether the folder takes writes", async () => {
    const outcomes: unknown[] = [];
    const onWrite = (error: unknown) => outcomes.push(error);
    const reader = createFolderLeadStore({ folder, create: false, log: () => {}, onWrite });
    expect(reader.lastWrite()).toBeNull();
    expect(await reader.probe()).toMatchObject({ ok: false, error: expect.stringContaining("ENOENT") });
    const store = createFolderLeadStore({ folder, log: () => {}, onWrite });
    expect(await store.probe()).toMatchObject({ ok: true });
    expect(await reader.probe()).toMatchObject({ ok: true });
    expect(outcomes).toEqual([expect.any(Error), null, null]);
    // A probe leaves nothing behind.
    expect(await readdir(folder)).toEqual([]);
  });
});

describe("lead file guard", () => {
  const webhookFailed = {
    state: "failed" as const,
    attempts: 5,
    lastError: "HTTP 500",
    nextAttemptAt: "2026-11-01T10:00:00.000Z",
    queuedAt: "2026-11-01T10:00:00.000Z",
  };

  /** A process that runs until the test ends it: a live holder for a staged lock. */
  function liveProcess() {
    const child = spawn("sleep", ["600"], { stdio: "ignore" });
    return { pid: child.pid ?? 0, stop: () => child.kill("SIGKILL") };
  }

  it("waits while a live process holds a lead's lock, then changes the file as that process left it", async () => {
    const server = createFolderLeadStore({ folder, log: () => {} });
    const lead = await server.add(enquiry, ["emailjs", "webhook"]);
    const file = join(folder, leadFileName(lead));
    const holder = liveProcess();
    try {
      await symlink(lockTargetFor(holder.pid), `${file}.lock`);
      const saving = server.saveDelivery(lead, "emailjs", {
        ...lead.destinations.emailjs,
        state: "sent",
        attempts: 1,
      } as DeliveryRecord);
      let settled = false;
      void saving.finally(() => {
        settled = true;
      });
      // The holder changes the webhook's record while the server waits for its lock…
      const held = JSON.parse(await readFile(file, "utf8")) as Lead;
      await writeFile(
        file,
        JSON.stringify({ ...held, destinations: { ...held.destinations, webhook: webhookFailed } }),
      );
      expect(settled).toBe(false);
      await rm(`${file}.lock`);
      // …and the server's write keeps it: the file is read again once the lock is its own.
      const saved = await saving;
      expect(saved?.destinations).toEqual({
        emailjs: expect.objectContaining({ state: "sent", attempts: 1 }),
        webhook: webhookFailed,
      });
      const stored = JSON.parse(await readFile(file, "utf8")) as Lead;
      expect(stored.destinations.webhook).toEqual(webhookFailed);
      expect(stored.destinations.emailjs?.state).toBe("sent");
      expect((await readdir(folder)).filter((name) => name.endsWith(".lock"))).toEqual([]);
    } finally {
      holder.stop();
    }
  });

  it("removes a lock whose holder is gone (exited, or its number reused by a later process) with one log line, and writes", async () => {
    const lines: string[] = [];
    const server = createFolderLeadStore({ folder, log: (line) => lines.push(line) });
    const [first, second] = [await server.add(enquiry, ["emailjs"]), await server.add(enquiry, ["emailjs"])];
    if (!first || !second) throw new Error("no leads");
    const exited = spawnSync("true").pid ?? 0;
    const gone = lockTargetFor(exited);
    await symlink(gone, join(folder, `${leadFileName(first)}.lock`));
    const holder = liveProcess();
    try {
      // A live process, but one that started after the lock was taken: not its holder.
      const reused = lockTargetFor(holder.pid).replace(/start=\d+/, "start=1");
      await symlink(reused, join(folder, `${leadFileName(second)}.lock`));
      for (const lead of [first, second]) {
        const sent = await server.saveDelivery(lead, "emailjs", {
          ...lead.destinations.emailjs,
          state: "sent",
          attempts: 1,
        } as DeliveryRecord);
        expect(sent?.state).toBe("sent");
      }
    } finally {
      holder.stop();
    }
    expect(lines).toEqual([
      expect.stringContaining(`${leadFileName(first)}.lock, a lock left by ${gone}, which is gone`),
      expect.stringContaining(`${leadFileName(second)}.lock, a lock left by pid=${holder.pid} start=1`),
    ]);
    expect((await readdir(folder)).filter((name) => name.endsWith(".lock"))).toEqual([]);
  });

  it("an entry in a lock's place that is no lock fails that lead's write alone, naming it; the claim passes over it", async () => {
    const lines: string[] = [];
    const server = createFolderLeadStore({ folder, log: (line) => lines.push(line) });
    const blocked = await server.add(enquiry, ["emailjs"]);
    const other = await server.add({ ...enquiry, name: "Other" }, ["emailjs"]);
    await mkdir(join(folder, `${leadFileName(blocked)}.lock`));
    const sent = (lead: Lead) =>
      ({ ...lead.destinations.emailjs, state: "sent", attempts: 1 }) as DeliveryRecord;
    await expect(server.saveDelivery(blocked, "emailjs", sent(blocked))).rejects.toThrow(
      `${join(folder, leadFileName(blocked))}.lock is not a lock of the store (not a symbolic link); move it out of ${folder}`,
    );
    expect((await server.claimNext("emailjs", new Set())).lead?.id).toBe(other.id);
    expect(lines).toEqual([
      expect.stringContaining(`${leadFileName(blocked)}.lock is not a lock of the store`),
    ]);
    expect((await server.saveDelivery(other, "emailjs", sent(other)))?.state).toBe("sent");
  });
});

describe("deliverer lock", () => {
  it("lets one holder in; another waits until the heartbeat goes stale, then takes over", async () => {
    const path = join(root, "deliverer.lock");
    let time = Date.now();
    const first = createFolderDelivererLock({ path, now: () => time });
    const second = createFolderDelivererLock({ path, now: () => time });
    expect(await first.acquire()).toBe(true);
    expect(await second.acquire()).toBe(false);
    time += 60_000;
    expect(await first.heartbeat()).toBe(true);
    expect(await second.acquire()).toBe(false);
    const stale = new Date(time - STALE_AFTER_MS - 1_000);
    await utimes(path, stale, stale);
    expect(await second.acquire()).toBe(true);
    expect(await first.heartbeat()).toBe(false);
    expect(await first.holds()).toBe(false);
    await second.release();
    expect(await first.acquire()).toBe(true);
  });

  it("names its holder by a random token only: a fresh lock is never taken, whatever process or host wrote it", async () => {
    const path = join(root, "deliverer.lock");
    // What an older server wrote, or a twin container (PID 1, same host name) right now.
    await writeFile(path, JSON.stringify({ token: "x", host: hostname(), pid: process.pid }));
    const lock = createFolderDelivererLock({ path });
    expect(await lock.acquire()).toBe(false);
    const holder = await readFolderLockHolder(path);
    expect(holder).toMatchObject({ token: "x", stale: false });
    const stale = new Date(Date.now() - STALE_AFTER_MS - 1_000);
    await utimes(path, stale, stale);
    expect(await lock.acquire()).toBe(true);
    expect(JSON.parse(await readFile(path, "utf8"))).toEqual({
      token: expect.stringMatching(/^[0-9a-f-]{36}$/),
      since: expect.any(String),
    });
  });

  it("takes its lock back at the next heartbeat when the file vanished with its folder", async () => {
    const lockFolder = join(root, "leads");
    await mkdir(lockFolder);
    const path = join(lockFolder, "deliverer.lock");
    const lock = createFolderDelivererLock({ path });
    expect(await lock.acquire()).toBe(true);
    await rm(lockFolder, { recursive: true });
    await expect(lock.heartbeat()).rejects.toThrow(/ENOENT/);
    await mkdir(lockFolder);
    expect(await lock.heartbeat()).toBe(true);
    expect(await lock.holds()).toBe(true);
  });
});
