/**
 * The browser's entry: records where the visit came from, counts WhatsApp taps, hydrates the page
 * and schedules the field-metrics report.
 */
import { RemixBrowser } from "@remix-run/react";
import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { recordVisitSource } from "~/enquiry/visit-source.client";
import { holdEventsUntilRouter } from "~/hydration/hold-events-until-router.client";
import { scheduleVitalsReporting } from "~/vitals/schedule-reporting.client";
import { countWhatsAppTaps } from "~/vitals/whatsapp-taps.client";

declare global {
  interface Window {
    __remixRouter?: { state: { location: { pathname: string; search: string } } };
  }
}

// In-page anchors (navigation, skip link, calls to action) are the browser's to handle: it
// scrolls and moves focus natively. Left to the router, a fragment change is a navigation
// that fights the smooth scroll. This listener runs before the router's. (React's error #345
// on an early click on such a link came from the click: see holdEventsUntilRouter.)
const initial = { pathname: window.location.pathname, search: window.location.search };
window.addEventListener("popstate", (event) => {
  const known = window.__remixRouter?.state.location ?? initial;
  if (known.pathname === window.location.pathname && known.search === window.location.search) {
    event.stopImmediatePropagation();
  }
});

holdEventsUntilRouter();
recordVisitSource();
countWhatsAppTaps();
startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <RemixBrowser />
    </StrictMode>,
  );
});

scheduleVitalsReporting();
