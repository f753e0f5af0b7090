/**
 * Finds a Chromium for the tests and benchmarks on a machine with only Node and the npm registry,
 * and the flags it runs with.
 */
import { existsSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium as playwrightChromium } from "@playwright/test";

export interface FoundChromium {
  executablePath: string;
  /** Where it came from, for the one line the test run prints. */
  source: "CHROMIUM_PATH" | "Playwright's own browser" | "the system's Chromium" | "@sparticuz/chromium";
}

const SYSTEM_CHROMIUM = "/usr/bin/chromium";

/**
 * The Chromium the browser tests, the bench and the icon script drive, first found of:
 * 1. `CHROMIUM_PATH`, when set (an error when it names no file: the operator asked for it);
 * 2. a browser Playwright itself installed (`npx playwright install`), where that was possible;
 * 3. the system's Chromium at /usr/bin/chromium (Debian's `chromium` package);
 * 4. the Chromium inside the `@sparticuz/chromium` dev dependency: `npm install` brings it as
 *    a brotli file in the package, and it is unpacked once to a folder of the user's own in the
 *    temp folder (the package's own `/tmp/chromium` is 0700, so only the first user on a machine
 *    could run it). So a machine with only Node and the npm registry runs every test.
 */
export async function findChromium(): Promise<FoundChromium> {
  const configured = process.env.CHROMIUM_PATH?.trim();
  if (configured) {
    if (!existsSync(configured)) throw new Error(`CHROMIUM_PATH=${configured} names no file`);
    return { executablePath: configured, source: "CHROMIUM_PATH" };
  }
  const playwrights = playwrightChromium.executablePath();
  if (playwrights && existsSync(playwrights)) {
    return { executablePath: playwrights, source: "Playwright's own browser" };
  }
  if (existsSync(SYSTEM_CHROMIUM))
    return { executablePath: SYSTEM_CHROMIUM, source: "the system's Chromium" };
  // The package unpacks into os.tmpdir(), which reads TMPDIR each time.
  const shared = process.env.TMPDIR;
  const own = join(tmpdir(), `sparticuz-chromium-${process.getuid?.() ?? "user"}`);
  mkdirSync(own, { recursive: true, mode: 0o700 });
  process.env.TMPDIR = own;
  try {
    const { default: packaged } = await import("@sparticuz/chromium");
    return { executablePath: await packaged.executablePath(), source: "@sparticuz/chromium" };
  } finally {
    if (shared === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = shared;
  }
}

/**
 * Flags for a headless Chromium on a machine with no network but loopback: without the
 * background-networking ones it keeps trying to reach Google's hosts. Root needs no sandbox.
 */
export const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
