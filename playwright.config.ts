import { defineConfig, devices } from "@playwright/test";
import { CHROMIUM_FLAGS, findChromium } from "./scripts/lib/chromium";
import type { NodeLineOptions } from "./tests/support/fixtures";

const port = Number(process.env.E2E_PORT ?? 3100);
export const baseURL = `http://127.0.0.1:${port}`;

// Browser downloads are impossible on our machines and in CI: scripts/lib/chromium.ts says
// which Chromium is used. Every worker loads this file; only the main process says it.
const chromium = await findChromium();
if (process.env.TEST_WORKER_INDEX === undefined) {
  console.log(`Browser: ${chromium.executablePath} (${chromium.source})`);
}

export default defineConfig<object, NodeLineOptions>({
  // tests/browser (a page in a real browser) and tests/integration (processes and PostgreSQL,
  // no page); vitest runs the *.test.ts files beside them.
  testDir: "tests",
  testMatch: ["browser/**/*.spec.ts", "integration/**/*.spec.ts"],
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  // Never a second try: a test that passes on its retry is a flaky test, a bug to fix.
  retries: 0,
  workers: 2,
  // Generous limits cost a passing test nothing (every wait ends when its state holds) and keep
  // a busy machine (a load of 10 and more on two cores) from failing tests that are merely slow.
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [["list"], ["./tests/support/no-skips-reporter.ts"]],
  use: {
    baseURL,
    trace: "retain-on-failure",
    launchOptions: { executablePath: chromium.executablePath, args: CHROMIUM_FLAGS },
  },
  globalSetup: "./tests/support/global-setup.ts",
  projects: [
    {
      name: "chromium",
      // Tests tagged @node-24-only run in the other project only (their twins on another store run here).
      grepInvert: /@node-24-only/,
      use: { ...devices["Desktop Chrome"], viewport: { width: 1280, height: 800 } },
    },
    // What ships: the process-level tests (tagged @process) again, with the server on the
    // image's Node line (tests/support/node-line.ts).
    {
      name: "node-24",
      grep: /@process/,
      use: { ...devices["Desktop Chrome"], viewport: { width: 1280, height: 800 }, nodeLine: "24" },
    },
  ],
  // The real built server, started the way production starts it. The default server keeps
  // enquiries as inbox leads in a throwaway store and has no rate limit; enquiry tests start their own.
  webServer: {
    command: "node build/server.js",
    url: `${baseURL}/healthz`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      PORT: String(port),
      HOST: "127.0.0.1",
      NODE_ENV: "production",
      ENQUIRY_STORE_DIR: `test-results/store-${port}`,
      ENQUIRY_RATE_LIMIT: "0",
      SITE_URL: "https://www.nirmaan.digital",
    },
  },
});
