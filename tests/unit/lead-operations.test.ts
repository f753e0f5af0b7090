import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { LeadStore } from "~/leads/contract.server";
import { createFolderLeadStore } from "~/leads/folder/store.server";
import type { Lead } from "~/leads/lead";
import { releaseLead, retryFailed, retryLead } from "~/leads/operations/changes.server";
import { eraseLeads } from "~/leads/operations/erasure.server";
import { leadsPerSource, personLeads, personQueryOf, selectedLeads } from "~/leads/operations/listing.server";
import { OperationRefused } from "~/leads/operations/refused";

// The operator's operations work on the store's contract, a page at a time: a store whose
// `list()`, which returns every lead at once, throws still serves every one of them.

const enquiry = (email: string) => ({
  name: "Asha Rao",
  email,
  countryCode: "91",
  phoneNumber: "9876543210",
  message: "A booking app",
});

let root: string;
let store: LeadStore;
let at = Date.parse("2026-11-01T10:00:00Z");

beforeEach(async () => {
  vi.spyOn(console, "log").mockImplementation(() => {});
  root = await mkdtemp(join(tmpdir(), "lead-operations-"));
  // A second apart: each lead's time, and so its place in either order, is its own.
  const now = () => {
    at += 1_000;
    return new Date(at);
  };
  // The leads in a folder of their own: the store keeps its attempts and erasures beside it.
  const folder = createFolderLeadStore({ folder: join(root, "leads"), log: () => {}, now });
  store = {
    ...folder,
    list: () => Promise.reject(new Error("an operation read every lead at once")),
  };
});

afterEach(async () => {
  vi.restoreAllMocks();
  await rm(root, { recursive: true, force: true });
});

async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const read: T[] = [];
  for await (const item of items) read.push(item);
  return read;
}

function failedAt(lead: Lead, name: "emailjs" | "webhook"): Lead {
  const record = { ...(lead.destinations[name] ?? lead.destinations.emailjs), state: "failed" as const };
  return { ...lead, state: "failed", destinations: { ...lead.destinations, [name]: record } } as Lead;
}

describe("the operator's operations on a lead store", () => {
  it("lists newest first, the inbox view or the quarantine, seeing every lead on the way", async () => {
    const first = await store.add(enquiry("asha@example.in"), ["emailjs"]);
    const spam = await store.quarantine(enquiry("bot@example.in"), "honeypot");
    const second = await store.add(enquiry("ravi@example.in"), []);
    const seen: string[] = [];
    const inbox = await all(selectedLeads(store, { spam: false }, (lead) => seen.push(lead.id)));
    expect(inbox.map((lead) => lead.id)).toEqual([second.id, first.id]);
    expect(seen).toEqual([second.id, spam.id, first.id]);
    expect((await all(selectedLeads(store, { spam: true }))).map((lead) => lead.id)).toEqual([spam.id]);
    expect((await all(selectedLeads(store, { spam: false, state: "inbox" }))).map((l) => l.id)).toEqual([
      second.id,
    ]);
  });

  it("finds a person's leads either way round, and refuses words that name no one", async () => {
    const first = await store.add(enquiry("asha@example.in"), ["emailjs"]);
    await store.add(enquiry("ravi@example.in"), ["emailjs"]);
    const again = await store.add(enquiry("ASHA@example.in"), ["emailjs"]);
    const query = personQueryOf("asha@example.in");
    expect((await all(personLeads(store, query))).map((lead) => lead.id)).toEqual([first.id, again.id]);
    expect((await all(personLeads(store, query, "newest first"))).map((lead) => lead.id)).toEqual([
      again.id,
      first.id,
    ]);
    expect(() => personQueryOf("asha")).toThrow(OperationRefused);
  });

  it("retries what failed, one lead or all, and refuses a lead that is not failed", async () => {
    const one = await store.add(enquiry("asha@example.in"), ["emailjs", "webhook"]);
    const two = await store.add(enquiry("ravi@example.in"), ["webhook"]);
    await store.scan();
    await store.save(failedAt(one, "webhook"));
    await store.save(failedAt(two, "webhook"));
    await expect(retryLead(store, one.id, "emailjs", new Date())).rejects.toThrow(
      `${one.id} is pending at emailjs, not failed: nothing to retry`,
    );
    expect(await retryLead(store, one.id, undefined, new Date())).toEqual({
      count: 1,
      destinations: ["webhook"],
    });
    expect(await retryFailed(store, undefined, new Date())).toEqual({ count: 1, destinations: ["webhook"] });
    const states = (await all(store.each())).map((lead) => lead.destinations.webhook?.state);
    expect(states).toEqual(["pending", "pending"]);
    await expect(
      retryLead(store, "0b6f2a1e-5c3d-4e8f-9a7b-1c2d3e4f5a6b", undefined, new Date()),
    ).rejects.toThrow("no lead 0b6f2a1e-5c3d-4e8f-9a7b-1c2d3e4f5a6b");
  });

  it("releases a quarantined lead into the queue, and only a quarantined one", async () => {
    const spam = await store.quarantine(enquiry("bot@example.in"), "honeypot");
    const { released } = await releaseLead(store, spam.id, new Date());
    expect(released.state).toBe("pending");
    expect((await all(store.each())).map((lead) => lead.state)).toEqual(["pending"]);
    await expect(releaseLead(store, spam.id, new Date())).rejects.toThrow(
      `${spam.id} is pending, not in the quarantine: nothing to release`,
    );
  });

  it("erases one lead by its id or all of a person's, naming where each may be held", async () => {
    const one = await store.add(enquiry("asha@example.in"), ["emailjs"]);
    const two = await store.add(enquiry("asha@example.in"), ["webhook"]);
    const other = await store.add(enquiry("ravi@example.in"), ["emailjs"]);
    await store.beginAttempt(two, "webhook");
    expect(await eraseLeads(store, other.id)).toEqual({
      byId: true,
      erased: [{ id: other.id, holding: [] }],
    });
    expect(await eraseLeads(store, "asha@example.in")).toEqual({
      byId: false,
      erased: [
        { id: one.id, holding: [] },
        { id: two.id, holding: ["webhook"] },
      ],
    });
    expect(await all(store.each())).toEqual([]);
  });

  it("counts the leads per source since a time, by what became of them", async () => {
    await store.add(enquiry("asha@example.in"), ["emailjs"]);
    const since = new Date(at + 500);
    await store.add(enquiry("ravi@example.in"), []);
    await store.quarantine(enquiry("bot@example.in"), "honeypot");
    expect(await leadsPerSource(store, since)).toEqual([
      { source: "unknown", medium: "", campaign: "", delivered: 0, waiting: 1, quarantined: 1 },
    ]);
  });
});
