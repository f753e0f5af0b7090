/** `npm run leads -- erase`: deletes a lead or a person's leads, and tells or names each destination that may hold them. */
import type { Destination, DestinationLink, ErasureWay } from "~/destinations/destination";
import { type DestinationName, destinationNamed } from "~/destinations/lookup.server";
import { env } from "~/env.server";
import type { LeadStore } from "~/leads/contract.server";
import { tellErased } from "~/leads/operations/erased-event";
import { eraseLeads } from "~/leads/operations/erasure.server";
import { logLine, plural } from "./output";

/**
 * Erases one lead (by its id) or every lead of one person, then names each destination that may
 * hold it (its delivery there began: in flight, timed out, failed or delivered), telling those
 * that can hear of an erasure (each as its declaration says: the webhook by `lead.erased`, when
 * this shell has its settings) and saying how to erase it at the others. Exits 1 when one that
 * can be told was not.
 */
export async function erase(store: LeadStore, who: string) {
  const now = new Date();
  const { byId, erased } = await eraseLeads(store, who);
  logLine({ event: "erase", leads: erased.length });
  console.log(
    byId ? `Erased lead ${erased[0]?.id}.` : `Erased ${plural(erased.length, "lead")} of that person.`,
  );
  // Those that hear of an erasure, connected from this shell's settings once (null: not set here).
  const links = new Map<DestinationName, DestinationLink | null>();
  const linkOf = (destination: Destination<DestinationName, unknown>) => {
    if (!links.has(destination.name)) {
      const link = destination.connect(env, (line) => console.error(line));
      links.set(destination.name, link === null || link === "held" ? null : link);
    }
    return links.get(destination.name) ?? null;
  };
  for (const { id, holding } of erased) {
    for (const name of holding) {
      const destination = destinationNamed(name);
      const { erasure } = destination;
      if (erasure.told) await tellErasure(destination, erasure, linkOf(destination), id, now);
      else console.log(`${id}: may hold it, cannot be told: ${name} — ${erasure.byHand}.`);
    }
  }
}

/** Tells one destination of one erasure and says whether it took it (its host only, never its URL). */
async function tellErasure(
  destination: Destination<DestinationName, unknown>,
  erasure: Extract<ErasureWay, { told: true }>,
  link: DestinationLink | null,
  id: string,
  erasedAt: Date,
) {
  const { name } = destination;
  if (!link?.tellErased) {
    const settings = destination.settings.filter((setting) => env[setting] === undefined);
    console.log(
      `${id}: may hold it, not told: ${name} (${settings.join(" and ")} ${settings.length === 1 ? "is" : "are"} not set in this shell) — erase it at ${erasure.where} by hand.`,
    );
    process.exitCode = 1;
    return;
  }
  const outcome = await tellErased(link.tellErased, id, erasedAt);
  const tries = plural(outcome.attempts, "attempt");
  const host = link.host ?? destination.title;
  logLine({ event: erasure.event, id, host, took: outcome.took, attempts: outcome.attempts });
  if (outcome.took) {
    console.log(`${id}: may hold it, told: ${name} (${host} took ${erasure.event}, ${tries}).`);
    return;
  }
  console.log(
    `${id}: may hold it, not told: ${name} (${host} did not take ${erasure.event}: ${outcome.error.cause}, ${tries}) — erase it there by hand.`,
  );
  process.exitCode = 1;
}
