import { existsSync } from "node:fs";
import { expect, test as playwright } from "@playwright/test";
import { nodeBinaryPath } from "./node-line";
import { watchPageProblems } from "./page-problems";

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
 * The page every browser test uses: it fails the test on any problem of
 * ./page-problems.ts (a Content-Security-Policy violation, an uncaught page error, a console
 * error, a failed response, a request to another origin) that the test did not declare in
 * `allowedProblems`.
 */
export const test = base.extend<ProblemOptions & { pageProblems: string[] }>({
  allowedProblems: [[], { option: true }],
  pageProblems: [
    async ({ page, baseURL, allowedProblems }, use) => {
      const problems: string[] = [];
      await watchPageProblems(page, new URL(baseURL ?? "http://127.0.0.1").origin, (line) => {
        if (!allowedProblems.some((pattern) => pattern.test(line))) problems.push(line);
      });
      await use(problems);
      expect(problems, "the page reported problems").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
