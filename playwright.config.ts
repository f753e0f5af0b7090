import { defineConfig, devices } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 3100);
export const baseURL = `http://127.0.0.1:${port}`;

/** Debian's Chromium: browser downloads are impossible on our machines and in CI. */
export const chromiumLaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
  ],
};

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  retries: process.env.CI ? 1 : 0,
  workers: 2,
  timeout: 30_000,
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL,
    trace: "off",
    launchOptions: chromiumLaunchOptions,
  },
  projects: [
    {
      name: "chromium",
      use: { ...devices["Desktop Chrome"], viewport: { width: 1280, height: 800 } },
    },
  ],
  // The real built server, started the way production starts it. The default server keeps
  // enquiries in a throwaway outbox and has no rate limit; enquiry tests start their own.
  webServer: {
    command: `node node_modules/@remix-run/serve/dist/cli.js build/index.js`,
    url: `${baseURL}/healthz`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      PORT: String(port),
      HOST: "127.0.0.1",
      NODE_ENV: "production",
      ENQUIRY_OUTBOX: `test-results/outbox-${port}.jsonl`,
      ENQUIRY_STORE_DIR: `test-results/data-${port}`,
      ENQUIRY_RATE_LIMIT: "0",
      SITE_URL: "https://www.nirmaan.digital",
    },
  },
});
