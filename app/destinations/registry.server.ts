/**
 * The registry: every destination a lead can be delivered to, one line each. Delivery, its
 * lease, direct sends, erasure, the alerts, the CSV export and `npm run leads` read the
 * destinations from here and name none of them.
 *
 * A new destination: its adapter beside these (a `Destination`, ~/destinations/destination),
 * one line below, and its settings in app/env.server.ts, `.env.example` and
 * docs/configuration.md (`npm run check` checks the last two: scripts/check-destinations.ts).
 * Why: docs/decisions/033-one-shape-for-every-destination.md.
 */
import type { Destination } from "~/destinations/destination";
import { emailJsDestination } from "~/destinations/emailjs.server";
import { webhookDestination } from "~/destinations/webhook.server";

/** In the order a lead's destinations are listed (the CSV's columns, `npm run leads`). */
export const DESTINATION_REGISTRY = [emailJsDestination, webhookDestination] as const;

/** A destination's name, as a lead's record, the CSV and `npm run leads -- retry --to` spell it. */
export type DestinationName = (typeof DESTINATION_REGISTRY)[number]["name"];

/** Every destination's name, in the registry's order. */
export const DESTINATIONS: readonly DestinationName[] = DESTINATION_REGISTRY.map(
  (destination) => destination.name,
);

/** Every destination's declaration, as the shape they all keep. */
export const destinations = (): readonly Destination<DestinationName, unknown>[] => DESTINATION_REGISTRY;

/** The declaration of the destination named `name`. */
export function destinationNamed(name: DestinationName): Destination<DestinationName, unknown> {
  const found = destinations().find((destination) => destination.name === name);
  if (!found) throw new Error(`no destination ${name} in the registry`);
  return found;
}

/** The longest time limit of any destination: what the delivery lease must outlast. */
export const LONGEST_DESTINATION_TIMEOUT_MS = Math.max(
  ...DESTINATION_REGISTRY.map((destination) => destination.timeoutMs),
);
