/**
 * Whether this page is where a visit landed, and its campaign: the page was loaded by a
 * navigation (not a reload, nor back or forward) from another site or from none. A page reached
 * from this site is never a landing, whatever its address says. Why: docs/decisions/050-campaign-counts.md.
 */
import { type CampaignFields, campaignFieldsOf } from "~/lead-parts/campaign-fields";

export function landingOf(): CampaignFields | undefined {
  const entry = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
  if (entry?.type !== "navigate") return undefined;
  const referrer = document.referrer;
  if (referrer !== "" && new URL(referrer).origin === location.origin) return undefined;
  // The address the page was loaded from, whatever the router did to it since.
  return campaignFieldsOf(entry.name, referrer);
}
