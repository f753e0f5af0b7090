/**
 * In the browser, the "Chat on WhatsApp" links: the message names the campaign the visit came
 * from, and each tap is counted as an anonymous field metric and in the campaign counts
 * (docs/decisions/012-anonymous-field-metrics.md, 050-campaign-counts.md).
 */
import { campaignOf } from "~/content/whatsapp";
import { visitorOptedOut } from "~/vitals/schedule-reporting.client";

/**
 * Called once at start-up, before the router changes the URL: reads the landing's campaign
 * (`utm_campaign`, else `utm_source`) from the address, which it leaves as it is, and keeps it
 * in this module's memory only (no cookie, no storage). When a `data-whatsapp` link is
 * followed (a click, a middle click, Enter), its message gets the campaign, and the tap is sent
 * as a beacon with the route, the device class and the landing's campaign, read from the address
 * and the referrer kept here (~/vitals/tap-beacon.client, in the reporter's chunk, which a tap
 * before the page is idle loads): nothing of the visitor. A visitor who asked not to be measured (Global Privacy Control, Do Not Track) is
 * not counted.
 */
export function countWhatsAppTaps(): void {
  const landing = window.location.href;
  const referrer = document.referrer;
  const campaign = campaignOf(window.location.search);
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
    // The link opens in a new tab: this page stays to send it.
    import("~/vitals/report-vitals.client").then(({ sendTap }) => sendTap(landing, referrer)).catch(() => {});
  };
  // On the window, capturing: held events (~/hydration/hold-events-until-router.client) stop
  // only after the window's own listeners have run.
  window.addEventListener("click", onTap, true);
  window.addEventListener("auxclick", onTap, true);
}
