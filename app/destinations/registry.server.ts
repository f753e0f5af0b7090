/**
 * The registry: every destination a lead can be delivered to, one line each. Delivery, its
 * lease, direct sends, erasure, the alerts, the CSV export and `npm run leads` read it (through
 * ~/destinations/lookup.server) and name no destination.
 *
 * A new destination: its adapter beside these (a `Destination`, ~/destinations/destination),
 * one line below, and its settings in app/env.server.ts, `.env.example` and
 * docs/configuration.md (`npm run check` checks the last two: scripts/check-destinations.ts).
 * Why: docs/decisions/033-one-shape-for-every-destination.md.
 */
import { emailJsDestination } from "~/destinations/emailjs.server";
import { webhookDestination } from "~/destinations/webhook.server";

/** In the order a lead's destinations are listed (the CSV's columns, `npm run leads`). */
export const DESTINATION_REGISTRY = [emailJsDestination, webhookDestination] as const;

/** A destination's name, as a lead's record, the CSV and `npm run leads -- retry --to` spell it. */
export type DestinationName = (typeof DESTINATION_REGISTRY)[number]["name"];
