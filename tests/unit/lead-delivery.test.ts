import { afterEach, describe, expect, it, vi } from "vitest";
import { judgeEmailJsAnswer } from "~/destinations/emailjs.server";
import type { Enquiry } from "~/lead-parts/enquiry";
import type { DelivererLock } from "~/leads/deliverer-lock";
import {
  createDelivery,
  type Delivery,
  type DestinationRoutes,
  type GaveUp,
} from "~/leads/delivery/delivery.server";
import type { LeadStore } from "~/leads/folder/store.server";
import { type DeliveryRecord, type Lead, newLead, withDelivery } from "~/leads/lead";
import type { EmailJsAnswer } from "~/mail/types";
import { gate } from "../support/gate";

/** An in-memory store whose writes fail while `failing` holds an error. */
function memoryStore(names: string[]) {
  const files = new Map<string, Lead>();
  names.forEach((name, index) => {
    const id = `00000000-0000-4000-8000-00000000000${index}`;
    const enquiry = {
      name,
      email: "a@example.in",
      countryCode: "91",
      phoneNumber: "9876543210",
      message: "",
    };
    files.set(id, newLead({ id, enquiry, destinations: ["emailjs"], at: new Date() }));
  });
  const state = {
    failing: null as Error | null,
    /** Writes refused while `failing` holds. */
    refused: 0,
    writes: [] as string[],
    erased: new Set<string>(),
  };
  /** Leads pending when the deliverer took over: due at once until their next write. */
  const hurried = new Set<string>();
  const store = {
    folder: "/memory",
    scan: async () => [...files.values()],
    async saveDelivery(lead: Lead, destination: "emailjs", record: DeliveryRecord | undefined) {
      if (state.failing) {
        state.refused += 1;
        throw state.failing;
      }
      if (await store.isErased(lead)) return null;
      hurried.delete(lead.id);
      const written = withDelivery(files.get(lead.id) ?? lead, destination, record);
      files.set(lead.id, written);
      state.writes.push(`${lead.enquiry.name}:${written.state}`);
      return written;
    },
    async isErased(lead: Lead) {
      if (!state.erased.has(lead.enquiry.name)) return false;
      files.delete(lead.id);
      return true;
    },
    /** The pending lead due soonest, then the oldest (no lease: one deliverer per memory). */
    async claimNext(destination: "emailjs", except: ReadonlySet<string>) {
      const dueAt = (lead: Lead) =>
        hurried.has(lead.id) ? 0 : Date.parse(lead.destinations[destination]?.nextAttemptAt ?? "");
      const due = [...files.values()]
        .filter((lead) => lead.destinations[destination]?.state === "pending" && !except.has(lead.id))
        .sort((a, b) => dueAt(a) - dueAt(b));
      for (const lead of due) {
        if (dueAt(lead) > Date.now()) return { lead: null, dueAt: dueAt(lead) };
        if (!(await store.isErased(lead))) return { lead };
      }
      return { lead: null, dueAt: null };
    },
    beginAttempt: async (lead: Lead) => !(await store.isErased(lead)),
    adopt: async () => {},
    async hurryPending() {
      for (const lead of files.values()) if (lead.state === "pending") hurried.add(lead.id);
    },
    lastWrite: () => ({ ok: true, at: Date.now() }),
    probe: async () => ({ ok: true, at: Date.now() }),
    prune: async () => 0,
  } as unknown as LeadStore;
  return {
    store,
    state,
    file: (name: string) => [...files.values()].find((lead) => lead.enquiry.name === name),
  };
}

/** A lock every call to `acquire` gets, once `granted` settles; `state` says whether it is held, and how often it was taken. */
function fakeLock(
  events: string[] = [],
  granted?: Promise<void>,
): DelivererLock & { state: { held: boolean; acquired: number } } {
  const state = { held: false, acquired: 0 };
  return {
    state,
    acquire: async () => {
      state.acquired += 1;
      await granted;
      state.held = true;
      return true;
    },
    heartbeat: async () => state.held,
    holds: async () => state.held,
    release: async () => {
      state.held = false;
      events.push("release");
    },
  };
}

function transport(answer: (enquiry: Enquiry) => Promise<EmailJsAnswer> | EmailJsAnswer) {
  const sent: string[] = [];
  const routes: DestinationRoutes = {
    async emailjs(lead) {
      sent.push(lead.enquiry.name);
      return judgeEmailJsAnswer(await answer(lead.enquiry));
    },
  };
  return { routes, sent };
}

const deliveries: Delivery[] = [];
afterEach(async () => {
  await Promise.all(deliveries.splice(0).map((delivery) => delivery.stop()));
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** The tests' rescan period (`scanMs`): a lead still pending in the store is looked at again this often. */
const SCAN_MS = 50;

function start(
  options: Omit<Parameters<typeof createDelivery>[0], "intervalMs" | "retentionDays" | "spamRetentionDays">,
) {
  const delivery = createDelivery({
    intervalMs: 0,
    retentionDays: 90,
    spamRetentionDays: 30,
    heartbeatMs: 20,
    scanMs: SCAN_MS,
    ...options,
  });
  deliveries.push(delivery);
  delivery.start();
  return delivery;
}

describe("delivery", () => {
  it("sends a lead EmailJS accepted once, even when its outcome cannot be written; writes it once the disk takes writes", async () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    vi.spyOn(console, "error").mockImplementation(() => {});
    const { store, state, file } = memoryStore(["A", "B", "C"]);
    state.failing = Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
    const { routes, sent } = transport(() => ({ ok: true }));
    const lines: string[] = [];
    const delivery = start({ store, routes, lock: fakeLock(), log: (line) => lines.push(line) });
    await expect.poll(() => sent).toEqual(["A", "B", "C"]);
    // Every rescan finds the three leads still pending in the store and, in the same turn that
    // decides what to send next, tries their outcomes' writes again: two more refused rounds
    // mean two turns that could have sent a lead again.
    await expect.poll(() => state.refused).toBeGreaterThanOrEqual(3 * 3);
    expect(sent).toEqual(["A", "B", "C"]);
    expect(delivery.unwrittenCount()).toBe(3);
    expect([...delivery.unwrittenOutcomes().values()].map((lead) => lead.state)).toEqual([
      "sent",
      "sent",
      "sent",
    ]);
    expect(file("A")?.state).toBe("pending");
    expect(lines).toEqual([expect.stringContaining("cannot write delivery outcomes to /memory (ENOSPC")]);

    state.failing = null;
    await expect.poll(() => file("C")?.state).toBe("sent");
    expect(delivery.unwrittenCount()).toBe(0);
    expect(sent).toEqual(["A", "B", "C"]);
    expect(lines).toEqual([expect.any(String), "lead store: delivery outcomes are written to /memory again"]);
  });

  it("never sends an erased lead, nor keeps retrying the write of one erased after its send", async () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    vi.spyOn(console, "error").mockImplementation(() => {});
    const { store, state, file } = memoryStore(["A", "erased", "C"]);
    state.erased.add("erased");
    state.failing = Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
    const { routes, sent } = transport(() => ({ ok: true }));
    const delivery = start({ store, routes, lock: fakeLock(), log: () => {} });
    await expect.poll(() => sent).toEqual(["A", "C"]);
    expect(delivery.unwrittenCount()).toBe(2);
    // A is erased while its outcome waits to be written: once the disk takes writes, it is dropped.
    state.erased.add("A");
    state.failing = null;
    await expect.poll(() => delivery.unwrittenCount()).toBe(0);
    expect(file("A")).toBeUndefined();
    expect(file("C")?.state).toBe("sent");
    expect(state.writes).toEqual(["C:sent"]);
    expect(sent).toEqual(["A", "C"]);
  });

  it("a lead EmailJS keeps refusing goes to the back: the others are delivered", async () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    vi.spyOn(console, "error").mockImplementation(() => {});
    const { store, file } = memoryStore(["stuck", "B", "C"]);
    const { routes, sent } = transport((enquiry) =>
      enquiry.name === "stuck"
        ? { ok: false, reason: "rejected", status: 503, detail: "EmailJS answered 503: busy" }
        : { ok: true },
    );
    start({ store, routes, lock: fakeLock(), log: () => {} });
    await expect.poll(() => file("C")?.state).toBe("sent");
    expect(sent).toEqual(["stuck", "B", "C"]);
    expect(file("stuck")).toMatchObject({ state: "pending", destinations: { emailjs: { attempts: 1 } } });
  });

  it("stop() starts no new send, waits for the send in flight and its write, then frees the lock", async () => {
    // The delivery's own timers on a clock the test moves: however long EmailJS takes to answer
    // and however much time passes after the stop, nothing depends on how busy the machine is.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval"] });
    vi.spyOn(console, "log").mockImplementation(() => {});
    const events: string[] = [];
    const { store, state } = memoryStore(["A", "B"]);
    const answer = gate();
    const { routes, sent } = transport(async (enquiry) => {
      events.push(`send ${enquiry.name}`);
      await answer.promise;
      events.push(`answered ${enquiry.name}`);
      return { ok: true };
    });
    const delivery = start({ store, routes, lock: fakeLock(events), log: () => {} });
    // vi.waitFor moves the fake clock on between its checks.
    await vi.waitFor(() => expect(sent).toEqual(["A"]));
    let stopped = false;
    const stopping = delivery.stop().then(() => {
      stopped = true;
    });
    await vi.advanceTimersByTimeAsync(10 * SCAN_MS);
    expect(stopped).toBe(false);
    expect(events).toEqual(["send A"]);
    answer.open();
    await stopping;
    events.push(`written ${state.writes.join(",")}`);
    // Stopped: no timer is left that could start a send, whatever time passes.
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(10 * SCAN_MS);
    expect(sent).toEqual(["A"]);
    expect(events).toEqual(["send A", "answered A", "release", "written A:sent"]);
  });

  it("a process that lost the lock in the middle of a send takes it again only once that send is over", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval"] });
    vi.spyOn(console, "log").mockImplementation(() => {});
    // Holding the lock with its one loop still waiting on EmailJS, it would keep every other
    // replica from delivering until that answer came.
    const { store } = memoryStore(["A", "B"]);
    const answer = gate();
    const { routes, sent } = transport(async () => {
      await answer.promise;
      return { ok: true };
    });
    const lock = fakeLock();
    const delivery = start({ store, routes, lock, log: () => {} });
    await vi.waitFor(() => expect(sent).toEqual(["A"]));
    lock.state.held = false;
    await vi.waitFor(() => expect(delivery.isDeliverer()).toBe(false));
    await vi.advanceTimersByTimeAsync(10 * SCAN_MS);
    expect(lock.state.acquired).toBe(1);
    answer.open();
    await vi.waitFor(() => expect(delivery.isDeliverer()).toBe(true));
    expect(lock.state.acquired).toBe(2);
    await vi.waitFor(() => expect(sent).toEqual(["A", "B"]));
  });

  it("stop() while the lock is being taken gives that lock up before it resolves", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval"] });
    vi.spyOn(console, "log").mockImplementation(() => {});
    // A replica stopping while its heartbeat waits for the lock (a busy database): the lock it
    // gets afterwards is its connection, which the pool's close would otherwise wait for forever.
    const { store } = memoryStore([]);
    const granted = gate();
    const lock = fakeLock([], granted.promise);
    const delivery = start({ store, routes: transport(() => ({ ok: true })).routes, lock, log: () => {} });
    await vi.waitFor(() => expect(lock.state.acquired).toBe(1));
    let stopped = false;
    const stopping = delivery.stop().then(() => {
      stopped = true;
    });
    // However long the lock takes, stop() waits for it rather than leave it taken behind it.
    await vi.advanceTimersByTimeAsync(10 * SCAN_MS);
    expect(stopped).toBe(false);
    granted.open();
    await stopping;
    expect(lock.state.held).toBe(false);
    expect(delivery.isDeliverer()).toBe(false);
  });

  it("tells onGaveUp once per lead a send failed for good, never of a retry, and says it delivers", async () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    vi.spyOn(console, "error").mockImplementation(() => {});
    const { store, file } = memoryStore(["refused", "busy", "fine"]);
    const { routes } = transport((enquiry) => {
      if (enquiry.name === "refused")
        return { ok: false, reason: "rejected", status: 412, detail: "EmailJS answered 412: Invalid grant" };
      if (enquiry.name === "busy")
        return { ok: false, reason: "rejected", status: 503, detail: "EmailJS answered 503: busy" };
      return { ok: true };
    });
    const gaveUp: GaveUp[] = [];
    const delivery = start({
      store,
      routes,
      lock: fakeLock(),
      log: () => {},
      onGaveUp: (g) => gaveUp.push(g),
    });
    await expect.poll(() => file("fine")?.state).toBe("sent");
    await expect.poll(() => file("busy")?.destinations.emailjs?.attempts).toBeGreaterThanOrEqual(1);
    expect(file("refused")?.state).toBe("failed");
    expect(gaveUp).toEqual([
      {
        leadId: file("refused")?.id,
        destination: "emailjs",
        attempts: 1,
        error: { status: 412, cause: "EmailJS answered 412: Invalid grant" },
      },
    ]);
    expect(delivery.isDeliverer()).toBe(true);
  });
});
