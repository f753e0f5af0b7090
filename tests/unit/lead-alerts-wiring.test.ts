import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { DatabaseState } from "~/db/database.server";
import { ALERT_HOUR_MS, DATABASE_ALERT_AFTER_MS } from "~/destinations/alert-policy";
import { ALERT_CHECK_MS, createLeadAlerts } from "~/leads/alerts.server";
import { type LeadCounts, noLeads } from "~/leads/contract.server";

// The alerts as the server wires them, on a clock the test moves: delivery's give-ups, the
// store's counts and the database's state in, the texts posted to the chat out.

const MINUTE = 60_000;
const ids = Array.from(
  { length: 10 },
  (_, index) => `00000000-0000-4000-8000-${String(index).padStart(12, "0")}`,
);
const refused = "EmailJS answered 412: the mail account must be reconnected in EmailJS";

beforeEach(() => {
  vi.useFakeTimers({ now: Date.parse("2026-03-02T09:00:00Z") });
});
afterEach(() => {
  vi.useRealTimers();
});

/** Alerts over a store and a database the test sets, posting into `posted`. */
function wired(options: { deliverer?: boolean; withDatabase?: boolean } = {}) {
  const world = {
    counts: noLeads() as LeadCounts,
    countsError: null as Error | null,
    deliverer: options.deliverer ?? true,
    database: { status: "ok" } as DatabaseState,
    directlySent: 0,
  };
  const posted: string[] = [];
  const lines: string[] = [];
  const alerts = createLeadAlerts({
    post: (text) => posted.push(text),
    alertAfterMinutes: 30,
    replica: "web-2",
    leads: {
      counts: async () => {
        if (world.countsError) throw world.countsError;
        return world.counts;
      },
      isDeliverer: () => world.deliverer,
      directlySent: () => world.directlySent,
    },
    database: options.withDatabase === false ? null : { state: () => world.database },
    log: (line) => lines.push(line),
  });
  alerts.start();
  /** One pending lead `id`, received `minutesAgo`, among `waiting`. */
  const pending = (id: string, minutesAgo: number, waiting = 1) => {
    world.counts = {
      ...noLeads(),
      pending: waiting,
      oldestPendingAt: Date.now() - minutesAgo * MINUTE,
      oldestPendingId: id,
    };
  };
  return { world, posted, lines, alerts, pending };
}

describe("lead alerts, wired", () => {
  it("tells a give-up at once; nine more in the hour come as one follow-up when it ends", async () => {
    const { alerts, posted } = wired();
    alerts.gaveUp({ leadId: ids[0] ?? "", destination: "emailjs", attempts: 1, error: { cause: refused } });
    expect(posted).toEqual([
      expect.stringContaining(`Lead ${ids[0]} (NRM-0000-0000) was not delivered to EmailJS`),
    ]);
    expect(posted[0]).toContain(`\`npm run leads -- retry ${ids[0]}\``);
    for (const leadId of ids.slice(1)) {
      await vi.advanceTimersByTimeAsync(5 * MINUTE);
      alerts.gaveUp({ leadId, destination: "emailjs", attempts: 1, error: { cause: refused } });
    }
    // 45 minutes in: nothing more until the hour since the first alert ends (a check after it).
    await vi.advanceTimersByTimeAsync(ALERT_HOUR_MS - 45 * MINUTE - ALERT_CHECK_MS);
    expect(posted).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(2 * ALERT_CHECK_MS);
    expect(posted).toHaveLength(2);
    expect(posted[1]).toMatch(/^9 more leads were not delivered to EmailJS in the hour after the last alert/);
    expect(posted[1]).toContain(
      ids
        .slice(1)
        .map((id) => `${id} (NRM-0000-0000)`)
        .join(", "),
    );
    await vi.advanceTimersByTimeAsync(3 * ALERT_HOUR_MS);
    expect(posted).toHaveLength(2);
  });

  it("tells leads sent directly (kept nowhere) by their count: at once, then once an hour with those since, on any replica", async () => {
    const { posted, world } = wired({ deliverer: false });
    await vi.advanceTimersByTimeAsync(ALERT_CHECK_MS);
    expect(posted).toEqual([]);
    world.directlySent = 1;
    await vi.advanceTimersByTimeAsync(ALERT_CHECK_MS);
    expect(posted).toEqual([
      "Server web-2 sent 1 lead directly to EmailJS and the lead webhook, as configured: neither the lead store nor its spool in ENQUIRY_STORE_DIR could keep it, so it is not in `npm run leads`, and a destination that did not take it then will never get it. Check the database (DATABASE_URL) and the data folder's free space and permissions; the server log names each lead's id and where it went.",
    ]);
    // Six more within the hour: one message with their count once the hour since the first ends.
    world.directlySent = 7;
    await vi.advanceTimersByTimeAsync(ALERT_HOUR_MS - 2 * ALERT_CHECK_MS);
    expect(posted).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(2 * ALERT_CHECK_MS);
    expect(posted).toHaveLength(2);
    expect(posted[1]).toMatch(
      /^Server web-2 sent 6 leads directly to EmailJS and the lead webhook, as configured: .* could keep them, so they are not in/,
    );
    // None since: nothing more.
    await vi.advanceTimersByTimeAsync(3 * ALERT_HOUR_MS);
    expect(posted).toHaveLength(2);
  });

  it("a give-up with no error recorded is still told, by its lead id", () => {
    const { alerts, posted } = wired({ deliverer: false });
    alerts.gaveUp({ leadId: ids[0] ?? "", destination: "emailjs", attempts: 3, error: { cause: "" } });
    expect(posted).toEqual([
      expect.stringContaining(`Lead ${ids[0]} (NRM-0000-0000) was not delivered to EmailJS`),
    ]);
  });

  it("tells a pending lead older than ALERT_AFTER_MINUTES once, reminds hourly, and gives one all-clear", async () => {
    const { posted, pending, world } = wired();
    pending(ids[0] ?? "", 29);
    await vi.advanceTimersByTimeAsync(ALERT_CHECK_MS);
    expect(posted).toEqual([]);
    // Inbox and spam leads never count, however old.
    world.counts = { ...noLeads(), inbox: 4, spam: 9 };
    await vi.advanceTimersByTimeAsync(ALERT_CHECK_MS);
    expect(posted).toEqual([]);

    pending(ids[0] ?? "", 31, 3);
    await vi.advanceTimersByTimeAsync(ALERT_CHECK_MS);
    expect(posted).toEqual([
      expect.stringMatching(
        new RegExp(
          `^3 leads are waiting to be delivered, the oldest \\(${ids[0]} \\(NRM-0000-0000\\)\\) for 31 minutes`,
        ),
      ),
    ]);
    await vi.advanceTimersByTimeAsync(ALERT_HOUR_MS - 2 * ALERT_CHECK_MS);
    expect(posted).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(2 * ALERT_CHECK_MS);
    expect(posted).toHaveLength(2);
    expect(posted[1]).toMatch(/^Still: 3 leads are waiting/);

    world.counts = noLeads();
    await vi.advanceTimersByTimeAsync(ALERT_CHECK_MS);
    expect(posted).toHaveLength(3);
    expect(posted[2]).toMatch(/^All clear: no lead has waited longer than 30 minutes any more/);
    await vi.advanceTimersByTimeAsync(2 * ALERT_HOUR_MS);
    expect(posted).toHaveLength(3);
  });

  it("leaves the queue to the deliverer: a replica that does not deliver never tells it", async () => {
    const { posted, pending, world } = wired({ deliverer: false });
    pending(ids[0] ?? "", 90);
    await vi.advanceTimersByTimeAsync(2 * ALERT_HOUR_MS);
    expect(posted).toEqual([]);
    world.deliverer = true;
    await vi.advanceTimersByTimeAsync(ALERT_CHECK_MS);
    expect(posted).toEqual([expect.stringContaining(`the oldest (${ids[0]} (NRM-0000-0000))`)]);
  });

  it("tells a database unreachable for 5 minutes and its return, on every replica", async () => {
    const { posted, world } = wired({ deliverer: false });
    world.database = { status: "unreachable", cause: "connect ECONNREFUSED 127.0.0.1:5432" };
    await vi.advanceTimersByTimeAsync(DATABASE_ALERT_AFTER_MS - ALERT_CHECK_MS);
    expect(posted).toEqual([]);
    await vi.advanceTimersByTimeAsync(2 * ALERT_CHECK_MS);
    expect(posted).toEqual([
      expect.stringMatching(/^Server web-2 has not reached the database for 5 minutes/),
    ]);
    await vi.advanceTimersByTimeAsync(ALERT_HOUR_MS);
    expect(posted).toHaveLength(1);
    world.database = { status: "ok" };
    await vi.advanceTimersByTimeAsync(ALERT_CHECK_MS);
    expect(posted).toHaveLength(2);
    expect(posted[1]).toMatch(/^Server web-2 reaches the database again, after 6\d minutes without it/);
  });

  it("a blip shorter than 5 minutes is not told", async () => {
    const { posted, world } = wired();
    world.database = { status: "unreachable", cause: "timeout" };
    await vi.advanceTimersByTimeAsync(4 * MINUTE);
    world.database = { status: "ok" };
    await vi.advanceTimersByTimeAsync(ALERT_HOUR_MS);
    expect(posted).toEqual([]);
  });

  it("says once that it cannot count the queue while the store fails, and posts nothing for it", async () => {
    const { posted, lines, world, pending } = wired();
    world.countsError = new Error("EIO: i/o error, scandir");
    await vi.advanceTimersByTimeAsync(10 * ALERT_CHECK_MS);
    expect(posted).toEqual([]);
    expect(lines).toEqual([
      "alerts: cannot count the pending leads (EIO: i/o error, scandir); the queue alert waits until the store answers",
    ]);
    world.countsError = null;
    pending(ids[0] ?? "", 45);
    await vi.advanceTimersByTimeAsync(ALERT_CHECK_MS);
    expect(posted).toHaveLength(1);
  });

  it("stops: no check runs after stop()", async () => {
    const { posted, pending, alerts } = wired();
    alerts.stop();
    pending(ids[0] ?? "", 45);
    await vi.advanceTimersByTimeAsync(ALERT_HOUR_MS);
    expect(posted).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });
});
