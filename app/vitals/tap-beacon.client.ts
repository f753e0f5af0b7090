/**
 * The beacon of one tap on a "Chat on WhatsApp" link: the page's route and device class and the
 * visit's campaign, as a landing reports it. Loaded at the first tap, so the page's own bundle
 * carries none of it.
 */
import { campaignFieldsOf } from "~/lead-parts/campaign-fields";
import { deviceClassOf, routeOf, type TapBeacon, VITALS_ENDPOINT } from "~/vitals/metrics";

/** Sends the tap of a visit that landed at `landing` from `referrer` (both read at start-up). */
export function sendTap(landing: string, referrer: string): void {
  const tap: TapBeacon = {
    tap: "whatsapp",
    route: routeOf(window.location.pathname),
    device: deviceClassOf(window.innerWidth),
    ...campaignFieldsOf(landing, referrer),
  };
  navigator.sendBeacon?.(VITALS_ENDPOINT, new Blob([JSON.stringify(tap)], { type: "application/json" }));
}
