/**
 * In the browser, the "Chat on WhatsApp" links: the message names the campaign the visit came
 * from, and each tap is counted as an anonymous field metric (docs/decisions/012-anonymous-field-metrics.md).
 */
import { campaignOf } from "~/content/whatsapp";
import { campaignFieldsOf } from "~/lead-parts/campaign-fields";
import { deviceClassOf, routeOf, type TapBeacon, VITALS_ENDPOINT } from "~/vitals/metrics";
import { visitorOptedOut } from "~/vitals/schedule-reporting.client";

/**
 * Called once at start-up, before the router changes the URL: reads the landing's campaign from
 * the address, which it leaves as it is, and the referring site, and keeps them in this module's
 * memory only (no cookie, no storage). When a `data-whatsapp` link is followed (a click, a middle
 * click, Enter), its message names the campaign (`utm_campaign`, else `utm_source`), and the tap
 * is sent as a beacon with the route, the device class and the campaign's fields, as a landing
 * reports them: nothing of the visitor. A visitor who asked not to be measured (Global Privacy
 * Control, Do Not Track) is not counted.
 */
export function countWhatsAppTaps(): void {
  const fields = campaignFieldsOf(window.location.href, document.referrer);
  const campaign = campaignOf(fields);
  const counted = !visitorOptedOut();
  const onTap = (event: MouseEvent) => {
    const link = (event.target as Element | null)?.closest?.("a[data-whatsapp]");
    if (!(link instanceof HTMLAnchorElement)) return;
    if (campaign !== null && link.dataset.whatsapp === "") {
      const url = new URL(link.href);
      const text = `${url.searchParams.get("text") ?? ""} (${campaign})`;
      link.href = `${url.origin}${url.pathname}?text=${encodeURIComponent(text)}`;
      link.dataset.whatsapp = "campaign";
    }
    if (!counted) return;
    const tap: TapBeacon = {
      tap: "whatsapp",
      route: routeOf(window.location.pathname),
      device: deviceClassOf(window.innerWidth),
      ...fields,
    };
    navigator.sendBeacon?.(VITALS_ENDPOINT, new Blob([JSON.stringify(tap)], { type: "application/json" }));
  };
  // On the window, capturing: held events (~/hydration/hold-events-until-router.client) stop
  // only after the window's own listeners have run.
  window.addEventListener("click", onTap, true);
  window.addEventListener("auxclick", onTap, true);
}
