/**
 * Connects every destination of the registry from the environment: where delivery sends leads,
 * which take a direct send, and who hears of a give-up (the webhook's `lead.failed`). Names no
 * destination: each declares itself in app/destinations/registry.server.ts.
 */
import type { DestinationLink, GaveUp } from "~/destinations/destination";
import { destinations } from "~/destinations/lookup.server";
import type { Env } from "~/env.server";
import type { DestinationRoutes } from "~/leads/delivery/delivery.server";
import type { WithdrawalTellers } from "~/leads/delivery/withdrawal-notices.server";
import type { DirectSenders } from "~/leads/lead-service.server";

/** Where delivery sends leads, and what it tells when a destination gives up on one. */
export interface LeadDestinations {
  routes: DestinationRoutes;
  /**
   * How each destination takes a lead sent directly (neither the store nor its spool could keep
   * it): once, the visitor waiting, never retried. Those that declare `directSend`, when connected.
   */
  direct: DirectSenders;
  /** How each destination that hears of erasures is told of a withdrawn lead (the webhook's `lead.erased`). */
  tellers: WithdrawalTellers;
  /** A destination gave up on a lead: told to each destination that hears of it. */
  onGaveUp(gaveUp: GaveUp): void;
  /** Starts no new attempt of what they queued; resolves once those in flight end. */
  stop(): Promise<void>;
}

/**
 * The destinations as delivery reaches them: each connected one's send, `held` while one is
 * partly configured, none for one not configured at all.
 */
export function createLeadDestinations(
  env: Env,
  log: (line: string) => void = console.error,
): LeadDestinations {
  const routes: DestinationRoutes = {};
  const direct: DirectSenders = {};
  const tellers: WithdrawalTellers = {};
  const links: DestinationLink[] = [];
  for (const destination of destinations()) {
    const link = destination.connect(env, log);
    if (link === null) continue;
    if (link === "held") {
      routes[destination.name] = "held";
      continue;
    }
    links.push(link);
    routes[destination.name] = (lead) => link.send(lead, "queued");
    if (destination.directSend) direct[destination.name] = (lead) => link.send(lead, "direct");
    const { tellErased } = link;
    if (tellErased) {
      tellers[destination.name] = (withdrawal) =>
        tellErased.call(link, withdrawal.leadId, new Date(withdrawal.withdrawnAt));
    }
  }
  return {
    routes,
    direct,
    tellers,
    onGaveUp(gaveUp) {
      for (const link of links) link.heardGaveUp?.(gaveUp);
    },
    stop: async () => {
      await Promise.all(links.map((link) => link.stop?.()));
    },
  };
}
