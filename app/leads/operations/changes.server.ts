/**
 * The operator's changes to leads, on the store's contract: a retry of what failed (one lead, or
 * every lead a page at a time) and a release from the quarantine. Each writes only what it
 * changes, so a delivery the running server makes meanwhile is never undone.
 */
import type { DestinationName } from "~/destinations/lookup.server";
import type { LeadStore } from "~/leads/contract.server";
import { type DeliveryRecord, destinationsOf, type Lead } from "~/leads/lead";
import { release, requeue, retried } from "~/leads/retry-policy";
import { findLead, noLead } from "./listing.server";
import { refuse } from "./refused";

/** What a retry put back in the queue: how many leads, and at which destinations (none: an inbox lead). */
export interface Requeued {
  count: number;
  destinations: DestinationName[];
}

/** The destinations of `lead` whose delivery failed: all, or only `to`. */
function failedOf(lead: Lead, to: DestinationName | undefined): DestinationName[] {
  return destinationsOf(lead).filter(
    (name) => lead.destinations[name]?.state === "failed" && (to === undefined || name === to),
  );
}

/** Writes each failed destination's record of `lead` back into the queue; the destinations written. */
async function requeueFailed(store: LeadStore, lead: Lead, to: DestinationName | undefined, now: Date) {
  const written: DestinationName[] = [];
  for (const name of failedOf(lead, to)) {
    const record = lead.destinations[name] as DeliveryRecord;
    if (await store.saveDelivery(lead, name, retried(record, now))) written.push(name);
  }
  return written;
}

/**
 * Puts back in the queue what failed of lead `id` (each failed destination, or only `to`) with a
 * fresh 72 h of retries; an `inbox` lead goes to every destination the running server has.
 */
export async function retryLead(
  store: LeadStore,
  id: string,
  to: DestinationName | undefined,
  now: Date,
): Promise<Requeued> {
  // The folder store writes only leads it has read into its view.
  await store.scan();
  const lead = (await findLead(store, id)) ?? noLead(id);
  if (lead.state === "inbox") {
    if (to !== undefined) {
      refuse(
        `${id} is an inbox lead, with no destination: retry it without --to, and the running server sends it to each destination it has`,
      );
    }
    // No deliverer writes an inbox lead: it is the operator's alone.
    if (!(await store.save(requeue(lead, now)))) refuse(`${id} was erased meanwhile: nothing to retry`);
    return { count: 1, destinations: [] };
  }
  if (to !== undefined && !lead.destinations[to]) {
    const its = destinationsOf(lead);
    refuse(
      `${id} does not go to ${to} (${its.length > 0 ? `it goes to ${its.join(", ")}` : `it is ${lead.state}`}): nothing to retry`,
    );
  }
  if (failedOf(lead, to).length === 0) {
    refuse(
      to === undefined
        ? `${id} is ${lead.state}, not failed: nothing to retry`
        : `${id} is ${lead.destinations[to]?.state} at ${to}, not failed: nothing to retry`,
    );
  }
  const written = await requeueFailed(store, lead, to, now);
  if (written.length === 0) refuse(`${id} was erased meanwhile: nothing to retry`);
  return { count: 1, destinations: written };
}

/** Puts every failed delivery (or every one at `to`) back in the queue, reading the leads a page at a time. */
export async function retryFailed(
  store: LeadStore,
  to: DestinationName | undefined,
  now: Date,
): Promise<Requeued> {
  await store.scan();
  let count = 0;
  const destinations = new Set<DestinationName>();
  for await (const lead of store.each()) {
    const written = await requeueFailed(store, lead, to, now);
    for (const name of written) destinations.add(name);
    if (written.length > 0) count += 1;
  }
  return { count, destinations: [...destinations] };
}

/**
 * Moves quarantined lead `id` into the delivery queue, for every destination whatever this
 * process's configuration says: the running server drops those it has not configured (one with
 * none files it in its inbox). Returns the lead as it was and as released.
 */
export async function releaseLead(
  store: LeadStore,
  id: string,
  now: Date,
): Promise<{ lead: Lead; released: Lead }> {
  await store.scan();
  const lead = (await findLead(store, id)) ?? noLead(id);
  if (lead.state !== "spam") refuse(`${id} is ${lead.state}, not in the quarantine: nothing to release`);
  const released = release(lead, now);
  if (!(await store.save(released))) refuse(`${id} was erased meanwhile: nothing to release`);
  return { lead, released };
}
