/** Beacons as the site's pages post them to `/vitals`, for tests that count what a server keeps. */

type Metric = { name: "LCP" | "INP" | "CLS" | "FCP" | "TTFB"; value: number; rating: string };

/** A landing on `/` from the newsletter's campaign `campaign`, on a phone, with `metrics` (none: it left before a paint). */
export function postLanding(origin: string, campaign: string, metrics: Metric[] = []): Promise<Response> {
  return fetch(`${origin}/vitals`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      route: "/",
      device: "mobile",
      navigationType: "navigate",
      metrics,
      landing: { source: "newsletter", medium: "email", campaign, click: null, host: null },
    }),
  });
}
