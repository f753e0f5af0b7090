import { existsSync } from "node:fs";
import { expect, test as playwright } from "@playwright/test";
import { nodeBinaryPath } from "./node-line";

export interface NodeLineOptions {
  /** The Node line process-level tests start the server on: "current" (this one) or a major version. */
  nodeLine: string;
}

/**
 * For tests that start server processes: `serverNode` is the binary to start them with, this
 * process's own or, in the "node-24" project, the image's line (tests/support/node-line.ts).
 */
export const processTest = playwright.extend<object, NodeLineOptions & { serverNode: string }>({
  nodeLine: ["current", { option: true, scope: "worker" }],
  serverNode: [
    async ({ nodeLine }, use) => {
      const binary = nodeLine === "current" ? process.execPath : nodeBinaryPath(nodeLine);
      if (!existsSync(binary))
        throw new Error(`no Node ${nodeLine} at ${binary}: the global setup installs it`);
      await use(binary);
    },
    { scope: "worker" },
  ],
});

const base = processTest;

export interface ProblemOptions {
  /** Problems a test expects, matched against the recorded lines, e.g. /^HTTP 404 /. */
  allowedProblems: RegExp[];
}

/**
 * The page every browser test uses: it fails the test on any Content-Security-Policy
 * violation, uncaught page error, console error, failed response or request to another
 * origin that the test did not declare in `allowedProblems`.
 */
export const test = base.extend<ProblemOptions & { pageProblems: string[] }>({
  allowedProblems: [[], { option: true }],
  pageProblems: [
    async ({ page, baseURL, allowedProblems }, use) => {
      const problems: string[] = [];
      const record = (line: string) => {
        if (!allowedProblems.some((pattern) => pattern.test(line))) problems.push(line);
      };
      const origin = new URL(baseURL ?? "http://127.0.0.1").origin;
      page.on("pageerror", (error) => record(`page error: ${error.message}`));
      page.on("console", (message) => {
        const text = message.text();
        // A failed response is recorded below with its URL; the console line has none.
        if (message.type() === "error" && !text.startsWith("Failed to load resource")) {
          record(`console error: ${text}`);
        }
      });
      page.on("response", (response) => {
        if (response.status() >= 400) record(`HTTP ${response.status()} ${response.url()}`);
      });
      page.on("request", (request) => {
        const url = request.url();
        if (/^(data|blob|about):/.test(url)) return;
        if (new URL(url).origin !== origin) record(`request to another origin: ${url}`);
      });
      await page.addInitScript(() => {
        document.addEventListener("securitypolicyviolation", (event) => {
          console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`);
        });
      });
      await use(problems);
      expect(problems, "the page reported problems").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
