/** The registry's destinations as the rest of the site reads them: their names, each one's declaration, the longest time limit. */
import type { Destination } from "~/destinations/destination";
import { DESTINATION_REGISTRY, type DestinationName } from "~/destinations/registry.server";

export type { DestinationName } from "~/destinations/registry.server";

/** Every destination's declaration, in the registry's order, as the shape they all keep. */
export const destinations = (): readonly Destination<DestinationName, unknown>[] => DESTINATION_REGISTRY;

/** Every destination's name, in the registry's order. */
export const DESTINATIONS: readonly DestinationName[] = destinations().map((destination) => destination.name);

/** The declaration of the destination named `name`. */
export function destinationNamed(name: DestinationName): Destination<DestinationName, unknown> {
  const found = destinations().find((destination) => destination.name === name);
  if (!found) throw new Error(`no destination ${name} in the registry`);
  return found;
}

/** The longest time limit of any destination: what the delivery lease must outlast. */
export const LONGEST_DESTINATION_TIMEOUT_MS = Math.max(
  ...destinations().map((destination) => destination.timeoutMs),
);
