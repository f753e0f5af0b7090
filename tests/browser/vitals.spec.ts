import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { APIRequestContext, Page } from "@playwright/test";
import { coresBucketOf, memoryBucketOf } from "~/vitals/metrics";
import { pageSendsBundle } from "../support/bundle-routes";
import { waitForHydration } from "../support/enquiry-page";
import { test as base, expect } from "../support/fixtures";
import { type RunningServer, startServer } from "../support/server-process";
import { largestPaintDone, reporterRunning } from "../support/vitals-reporter";

const LIMIT = 5;

interface StoredLine {
  [key: string]: unknown;
  route: string;
  device: string;
  metric: string;
}

/** The app with its data folder of its own and a small beacon budget, behind a trusted proxy. */
const test = base.extend<{ stored: () => StoredLine[] }, { app: { server: RunningServer; folder: string } }>({
  app: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright requires a destructuring pattern here.
    async ({}, use) => {
      const folder = mkdtempSync(join(tmpdir(), "vitals-e2e-"));
      const server = await startServer({
        env: {
          ENQUIRY_STORE_DIR: folder,
          ENQUIRY_OUTBOX: join(folder, "enquiries.jsonl"),
          VITALS_RATE_LIMIT: String(LIMIT),
          TRUST_PROXY: "1",
        },
      });
      await use({ server, folder });
      await server.stop();
      rmSync(folder, { recursive: true, force: true });
    },
    { scope: "worker" },
  ],
  stored: async ({ app }, use) => {
    const file = join(app.folder, "vitals.jsonl");
    await use(() =>
      existsSync(file)
        ? readFileSync(file, "utf8")
            .trimEnd()
            .split("\n")
            .filter(Boolean)
            .map((line) => JSON.parse(line) as StoredLine)
        : [],
    );
  },
  baseURL: async ({ app }, use) => use(app.server.url),
});

const REPORTER = /\/build\/_shared\/report-vitals\.client-[^/]+\.js$/;

/** Records when the page asks for the reporter's chunk and for the beacon endpoint. */
function watchRequests(page: Page) {
  const urls: string[] = [];
  page.on("request", (request) => urls.push(new URL(request.url()).pathname));
  return {
    reporter: () => urls.filter((path) => REPORTER.test(path)),
    beacons: () => urls.filter((path) => path === "/vitals"),
  };
}

/**
 * The lines stored for `routes` since now. The worker's tests share one store and run in any
 * order; a test counts only what its own page views stored (no other test has a view of those
 * routes still to report: each waits for its views' lines, and one beacon writes them at once).
 */
function linesFrom(stored: () => StoredLine[], ...routes: string[]): () => StoredLine[] {
  const before = stored().length;
  return () =>
    stored()
      .slice(before)
      .filter((line) => routes.includes(line.route));
}

/**
 * Visits `path` until its reporter runs, leaves it, and returns the lines that view stored for
 * `route`. Also the way to know that a page left earlier in the same browser has nothing more on
 * its way: a beacon leaves as its page is hidden, so one sent then has arrived before this later
 * view's (Playwright sees no request of a page being unloaded: the store is the only witness).
 */
async function reportedLines(page: Page, stored: () => StoredLine[], path: string, route: string) {
  const lines = linesFrom(stored, route);
  const requests = watchRequests(page);
  const bundled = pageSendsBundle(path);
  await page.goto(path);
  if (bundled) {
    await waitForHydration(page);
    await expect.poll(() => requests.reporter().length).toBe(1);
  }
  await reporterRunning(page, bundled);
  // The inline reporter runs from the start: leave only once the page has painted its largest
  // element (and so its first), or there is nothing but TTFB to report yet.
  if (!bundled) await page.evaluate(largestPaintDone);
  await page.goto("about:blank");
  await expect.poll(() => lines().length).toBeGreaterThanOrEqual(3);
  // A page without a bundle reports through its inline script, never the reporter's chunk.
  if (!bundled) expect(requests.reporter()).toEqual([]);
  return lines();
}

/**
 * Clicks the page's heading, so there is an INP to report, and checks that nothing is sent while
 * the page is visible; returns what the browser says of its cores and memory.
 */
async function interactWhileVisible(page: Page, requests: ReturnType<typeof watchRequests>) {
  // The browser records no largest paint after the first input: one still waiting on a web font
  // when the click comes (a busy machine) would never be reported.
  await page.evaluate(largestPaintDone);
  await page.getByRole("heading", { level: 1 }).click();
  // The browser has timed the interaction (the reporters read INP from these entries).
  await expect.poll(() => page.evaluate(() => performance.getEntriesByType("first-input").length)).toBe(1);
  expect(requests.beacons()).toEqual([]);
  return page.evaluate(() => ({
    cores: navigator.hardwareConcurrency,
    memory: (navigator as Navigator & { deviceMemory?: number }).deviceMemory,
  }));
}

/** Waits until `lines` holds exactly the five metrics, once each. */
async function expectTheFiveMetrics(lines: () => StoredLine[]): Promise<void> {
  await expect
    .poll(() =>
      lines()
        .map((line) => line.metric)
        .sort(),
    )
    .toEqual(["CLS", "FCP", "INP", "LCP", "TTFB"]);
}

/** A route no other test of this file visits: a later page view that proves earlier ones reported all they would. */
const LATER_VIEW = "/terms-conditions";

test.describe("in the browser", () => {
  test("a page view stores its LCP, INP, CLS, FCP and TTFB once, sent after load and only when the page is hidden", async ({
    page,
    stored,
  }) => {
    const ownLines = linesFrom(stored, "/");
    const requests = watchRequests(page);
    await page.goto("/");
    await waitForHydration(page);
    await expect.poll(() => requests.reporter().length).toBe(1);
    const readTiming = () =>
      page.evaluate(() => {
        const navigation = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
        const chunk = performance
          .getEntriesByType("resource")
          .find((entry) => entry.name.includes("report-vitals"));
        return { loadEnd: navigation.loadEventEnd, chunkStart: chunk?.startTime ?? -1 };
      });
    // The chunk's resource timing entry appears once it has downloaded, some time after its
    // request was seen: on a busy machine, long after.
    await expect
      .poll(async () => (await readTiming()).chunkStart, { message: "the reporter's chunk finished loading" })
      .not.toBe(-1);
    const timing = await readTiming();
    expect(timing.loadEnd).toBeGreaterThan(0);
    expect(timing.chunkStart).toBeGreaterThanOrEqual(timing.loadEnd);
    await reporterRunning(page);

    const device = await interactWhileVisible(page, requests);
    expect(ownLines()).toEqual([]);

    await page.goto("about:blank");
    await expectTheFiveMetrics(ownLines);
    const lines = ownLines();
    for (const line of lines) {
      expect(Object.keys(line).sort()).toEqual([
        "at",
        "cores",
        "device",
        "memoryGb",
        "metric",
        "nav",
        "rating",
        "route",
        "value",
      ]);
      expect(line).toMatchObject({
        route: "/",
        device: "desktop",
        nav: "navigate",
        cores: coresBucketOf(device.cores),
        memoryGb: memoryBucketOf(device.memory),
      });
      expect(line.at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:00:00\.000Z$/);
    }
    const lcp = lines.find((line) => line.metric === "LCP");
    expect(lcp?.value).toBeGreaterThan(0);
    const text = JSON.stringify(lines);
    expect(text).not.toMatch(/127\.0\.0\.1|Mozilla|Chrome|cookie/i);

    // Once per page view: a later view's lines arrived, and nothing more for this one.
    await reportedLines(page, stored, LATER_VIEW, LATER_VIEW);
    expect(ownLines()).toEqual(lines);
  });

  test("a click that leaves the page before the browser is idle still counts toward INP", async ({
    page,
    stored,
  }) => {
    const ownLines = linesFrom(stored, "/");
    const requests = watchRequests(page);
    await page.goto("/");
    await waitForHydration(page);
    await expect.poll(() => requests.reporter().length).toBe(1);
    await reporterRunning(page);
    // The moment the browser hands the click's timing to observers (web-vitals' first, as it
    // observed first), the page keeps its main thread busy and leaves: no idle moment comes
    // between the interaction and the page being hidden, as when a visitor clicks a link away.
    await page.evaluate(() => {
      new PerformanceObserver((list, observer) => {
        if (list.getEntries().length === 0) return;
        observer.disconnect();
        const channel = new MessageChannel();
        const until = performance.now() + 5_000;
        channel.port1.onmessage = () => {
          const busyUntil = performance.now() + 20;
          while (performance.now() < busyUntil);
          if (performance.now() < until) channel.port2.postMessage(null);
        };
        channel.port2.postMessage(null);
        window.location.assign("/cookie-policy");
      }).observe({ type: "first-input" });
    });
    await page.getByRole("heading", { level: 1 }).click();
    await page.waitForURL("**/cookie-policy");
    await expect
      .poll(() =>
        ownLines()
          .map((line) => line.metric)
          .sort(),
      )
      .toEqual(["CLS", "FCP", "INP", "LCP", "TTFB"]);
  });

  test.describe("on a tablet, a page without a bundle", () => {
    test.use({ viewport: { width: 800, height: 1024 } });

    test("stores its LCP, INP, CLS, FCP and TTFB once, from its inline reporter, when hidden", async ({
      page,
      stored,
    }) => {
      // Another test leaves this route too; this view is the only one from a tablet.
      const route = "/cookie-policy";
      const viewLines = linesFrom(stored, route);
      const ownLines = () => viewLines().filter((line) => line.device === "tablet");
      const requests = watchRequests(page);
      await page.goto(route);
      await reporterRunning(page, false);
      const device = await interactWhileVisible(page, requests);
      await page.goto("about:blank");
      await expectTheFiveMetrics(ownLines);
      for (const line of ownLines()) {
        expect(line).toMatchObject({
          route,
          nav: "navigate",
          cores: coresBucketOf(device.cores),
          memoryGb: memoryBucketOf(device.memory),
        });
        expect(["good", "needs-improvement", "poor"]).toContain(line.rating);
      }
      expect(ownLines().find((line) => line.metric === "LCP")?.value).toBeGreaterThan(0);
      expect(requests.reporter()).toEqual([]);
    });
  });

  test.describe("on a phone", () => {
    test.use({
      viewport: { width: 375, height: 812 },
      isMobile: true,
      hasTouch: true,
      allowedProblems: [/^HTTP 404 /],
    });

    test("a path no page claims reports as the 404 page, from a mobile", async ({ page, stored }) => {
      for (const line of await reportedLines(page, stored, "/no-such-page/deep?q=1", "404"))
        expect(line).toMatchObject({ device: "mobile" });
    });
  });

  test.describe("content pages", () => {
    test.use({ allowedProblems: [/^HTTP 404 /] });

    test("a case study reports under its route's pattern, and an article no one wrote as the 404 page", async ({
      page,
      stored,
    }) => {
      await reportedLines(page, stored, "/case-studies/pawpal", "/case-studies/:slug");
      await reportedLines(page, stored, "/insights/no-such-article", "404");
      expect(JSON.stringify(stored())).not.toMatch(/pawpal|no-such-article/);
    });
  });

  test("a visit from a campaign link reports the route without its query", async ({ page, stored }) => {
    const path = "/privacy-policy?utm_source=newsletter&utm_campaign=launch&gclid=CLICK123";
    // Its lines are stored under the route alone.
    await reportedLines(page, stored, path, "/privacy-policy");
    expect(JSON.stringify(stored())).not.toMatch(/utm_|newsletter|launch|gclid|CLICK123/);
  });

  const optedOut: Array<[string, () => void]> = [
    [
      "Global Privacy Control",
      () =>
        Object.defineProperty(Navigator.prototype, "globalPrivacyControl", {
          get: () => true,
          configurable: true,
        }),
    ],
    [
      "Do Not Track",
      () => Object.defineProperty(Navigator.prototype, "doNotTrack", { get: () => "1", configurable: true }),
    ],
  ];
  for (const [signal, script] of optedOut) {
    test(`a browser that sends ${signal} loads no reporter and sends nothing`, async ({ page, stored }) => {
      await page.addInitScript(script);
      const ownLines = linesFrom(stored, "/");
      const requests = watchRequests(page);
      await page.goto("/");
      await waitForHydration(page);
      await page.getByRole("heading", { level: 1 }).click();
      // The reporter would start at the first idle moment after load: an idle callback asked
      // for now runs after the one the page asked for at load.
      await page.evaluate(() => new Promise((resolve) => window.requestIdleCallback(resolve)));
      await page.goto("about:blank");
      expect(requests.reporter()).toEqual([]);
      expect(requests.beacons()).toEqual([]);
      // A later view in the same browser, without the signal, is reported; nothing of this one.
      await reportedLines(await page.context().newPage(), stored, LATER_VIEW, LATER_VIEW);
      expect(ownLines()).toEqual([]);
    });
  }

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("nothing is loaded or sent", async ({ page, stored }) => {
      const ownLines = linesFrom(stored, "/", "/privacy-policy");
      const requests = watchRequests(page);
      await page.goto("/");
      await page.getByRole("link", { name: "Privacy Policy" }).first().click();
      await expect(page).toHaveURL(/\/privacy-policy$/);
      // Without JavaScript only the HTML asks for anything, and it did while the pages loaded,
      // which the navigations awaited: there is no beacon at leaving to wait for.
      await page.goto("about:blank");
      expect(requests.reporter()).toEqual([]);
      expect(requests.beacons()).toEqual([]);
      expect(ownLines()).toEqual([]);
    });
  });
});

/**
 * How many lines are stored once everything queued so far is: a marker beacon (one line, a value
 * no other beacon sends) is posted and waited for; batches are written in the order they queue.
 */
async function allWritten(request: APIRequestContext, stored: () => StoredLine[]): Promise<number> {
  markers += 1;
  const value = 500_000 + markers;
  const response = await request.post("/vitals", {
    headers: { ...JSON_TYPE, "X-Forwarded-For": nextClient() },
    data: JSON.stringify({
      ...beacon,
      navigationType: "back-forward",
      metrics: [{ name: "LCP", value, rating: "poor" }],
    }),
  });
  expect(response.status()).toBe(202);
  await expect
    .poll(() => stored().some((line) => line.nav === "back-forward" && line.value === value))
    .toBe(true);
  return stored().length;
}
let markers = 0;

let clients = 0;
/** A fresh client address each time, so tests never share a rate-limit budget. */
/** A new visitor behind the trusted proxy: the proxy appends the address it saw (the last entry). */
function nextClient(): string {
  clients += 1;
  return `10.0.0.1, 198.51.${Math.floor(clients / 250)}.${(clients % 250) + 1}`;
}

const JSON_TYPE = { "Content-Type": "application/json" };
const beacon = {
  route: "/cookie-policy",
  device: "tablet",
  navigationType: "reload",
  metrics: [
    { name: "LCP", value: 1830, rating: "good" },
    { name: "CLS", value: 0.02, rating: "good" },
  ],
};

test.describe("the endpoint", () => {
  test("answers a valid beacon 202 with the resource headers, stores it with its batch, and keeps no address", async ({
    request,
    stored,
  }) => {
    const client = nextClient();
    const response = await request.post("/vitals", {
      headers: { ...JSON_TYPE, "X-Forwarded-For": client, "User-Agent": "Probe/1.0", Cookie: "tracker=1" },
      data: JSON.stringify(beacon),
    });
    expect(response.status()).toBe(202);
    expect(await response.text()).toBe("");
    expect(response.headers()["content-security-policy"]).toContain("default-src 'none'");
    expect(response.headers()["x-content-type-options"]).toBe("nosniff");
    expect(response.headers()["set-cookie"]).toBeUndefined();
    const lines = () =>
      stored()
        .filter((line) => line.route === "/cookie-policy" && line.nav === "reload")
        .map((line) => [line.metric, line.value, line.rating]);
    await expect.poll(lines).toEqual([
      ["LCP", 1830, "good"],
      ["CLS", 0.02, "good"],
    ]);
    const text = JSON.stringify(stored());
    expect(text).not.toContain(client.split(",")[0]);
    expect(text).not.toMatch(/Probe|tracker/);
  });

  test("answers anything but POST with 405", async ({ request }) => {
    const response = await request.get("/vitals");
    expect(response.status()).toBe(405);
    expect(response.headers().allow).toBe("POST");
  });

  const refused: Array<[string, number, Record<string, string>, string | Buffer]> = [
    ["malformed JSON", 400, JSON_TYPE, '{"route":"/",'],
    ["an empty body", 400, JSON_TYPE, ""],
    ["a form body", 400, { "Content-Type": "application/x-www-form-urlencoded" }, "route=%2F"],
    ["JSON sent as text/plain", 400, { "Content-Type": "text/plain" }, JSON.stringify(beacon)],
    [
      "an unknown metric",
      400,
      JSON_TYPE,
      JSON.stringify({ ...beacon, metrics: [{ name: "FID", value: 9, rating: "good" }] }),
    ],
    [
      "a value out of range",
      400,
      JSON_TYPE,
      JSON.stringify({ ...beacon, metrics: [{ name: "CLS", value: 1e9, rating: "poor" }] }),
    ],
    [
      "a path that is no route of the site",
      400,
      JSON_TYPE,
      JSON.stringify({ ...beacon, route: "/wp-admin" }),
    ],
    ["an extra field", 400, JSON_TYPE, JSON.stringify({ ...beacon, ip: "203.0.113.9" })],
    ["a body over 4 KiB", 413, JSON_TYPE, JSON.stringify({ ...beacon, pad: "x".repeat(4096) })],
  ];
  for (const [label, status, headers, data] of refused) {
    test(`refuses ${label} with ${status} and stores nothing`, async ({ request, stored }) => {
      const before = await allWritten(request, stored);
      const response = await request.post("/vitals", {
        headers: { ...headers, "X-Forwarded-For": nextClient() },
        data,
      });
      expect(response.status()).toBe(status);
      // Only the marker's one line came after: the refused beacon queued nothing before it.
      expect(await allWritten(request, stored)).toBe(before + 1);
    });
  }

  test("cuts off a streamed body without a length past 4 KiB with 413", async ({ baseURL }) => {
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 256 * 1024) return controller.close();
        sent += 1024;
        controller.enqueue(new Uint8Array(1024).fill(0x20));
      },
    });
    const response = await fetch(`${baseURL}/vitals`, {
      method: "POST",
      headers: { ...JSON_TYPE, "X-Forwarded-For": nextClient() },
      body,
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
  });

  test("answers a flood with 429 past the client's budget, and keeps serving everyone else", async ({
    request,
    stored,
    app,
  }) => {
    const flooder = nextClient();
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 3; i += 1) {
      const response = await request.post("/vitals", {
        headers: { ...JSON_TYPE, "X-Forwarded-For": flooder },
        data: JSON.stringify({ ...beacon, navigationType: "prerender" }),
      });
      statuses.push(response.status());
    }
    expect(statuses).toEqual([...Array(LIMIT).fill(202), 429, 429, 429]);
    await expect
      .poll(() => stored().filter((line) => line.nav === "prerender").length)
      .toBe(LIMIT * beacon.metrics.length);
    await expect
      .poll(
        () => app.server.output().match(/{"event":"vitals","status":429,"reason":"beacon budget"}/g)?.length,
      )
      .toBe(3);

    const other = await request.post("/vitals", {
      headers: { ...JSON_TYPE, "X-Forwarded-For": nextClient() },
      data: JSON.stringify(beacon),
    });
    expect(other.status()).toBe(202);
    expect((await request.get("/healthz")).status()).toBe(200);
    expect((await request.get("/")).status()).toBe(200);
  });
});

test("an unusable data folder costs the visitor nothing: 202, one log line, the site serves", async () => {
  const folder = mkdtempSync(join(tmpdir(), "vitals-blocked-"));
  const blocker = join(folder, "not-a-folder");
  writeFileSync(blocker, "");
  const server = await startServer({
    env: { ENQUIRY_STORE_DIR: blocker, ENQUIRY_OUTBOX: join(folder, "e.jsonl") },
  });
  try {
    for (let i = 0; i < 3; i += 1) {
      const response = await fetch(`${server.url}/vitals`, {
        method: "POST",
        headers: JSON_TYPE,
        body: JSON.stringify(beacon),
      });
      expect(response.status).toBe(202);
    }
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${server.url}/`)).status).toBe(200);
    const logged = () =>
      server
        .output()
        .split("\n")
        .filter((line) => line.startsWith("vitals: cannot write"));
    // The batch's write fails once the batch is written: one line, however many beacons it held.
    await expect.poll(() => logged().length).toBe(1);
    expect(logged()[0]).toContain("ENQUIRY_STORE_DIR");
  } finally {
    await server.stop();
    rmSync(folder, { recursive: true, force: true });
  }
});
