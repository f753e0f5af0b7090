/**
 * What a page must never do, watched as it runs: a Content-Security-Policy violation, an
 * uncaught error, a console error, a failed response or a request to another origin. Every
 * browser test fails on them (tests/support/fixtures.ts), and `npm run check:content` reports them.
 */
import type { Page } from "@playwright/test";

/**
 * Calls `record` with one line per problem `page` has from now on (`HTTP 404 <url>`,
 * `request to another origin: <url>`, `console error: …`, `page error: …`, `CSP violation: …`);
 * `origin` is the site's.
 */
export async function watchPageProblems(
  page: Page,
  origin: string,
  record: (line: string) => void,
): Promise<void> {
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
}
