import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import {
  against,
  BUDGET_DEVICE,
  gzipBytes,
  homeBudgetLines,
  htmlBudgetOf,
  kb,
  measureHomePage,
} from "../support/byte-budgets";
import { FIXTURE_CONTENT_DIR } from "../support/fixture-content";
import { expect, test } from "../support/fixtures";

// The budgets and how they are measured: tests/support/byte-budgets.ts, which
// `npm run check:content` holds every page of the built site to as well.

test.use(BUDGET_DEVICE);

test("the home page stays within its byte budgets (gzip -9)", async ({ page }) => {
  const bytes = await measureHomePage(page);
  const lines = homeBudgetLines(bytes);

  console.log(
    [
      "home page budgets (gzip -9, 375×812):",
      ...lines.map(({ name, bytes, budget }) => `  ${name.padEnd(22)} ${against(bytes, budget)}`),
      "  files:",
      ...[...bytes.eventually.files].map(
        ([url, { kind, gzip }]) => `    ${kind.padEnd(4)} ${kb(gzip).padStart(9)}  ${new URL(url).pathname}`,
      ),
    ].join("\n"),
  );

  expect(bytes.initial.html, "a document was measured").toBeGreaterThan(0);
  expect(bytes.initial.js, "scripts were measured").toBeGreaterThan(0);
  expect(bytes.initial.typedJs, "typed.js was loaded before interaction").toBeGreaterThan(0);
  expect(bytes.vitals, "the field-metrics reporter was loaded").toBeGreaterThan(0);
  for (const { name, bytes, budget } of lines) expect(bytes, name).toBeLessThanOrEqual(budget);
});

/** The largest file of a folder of the tests' content, by its bytes: the page with the most HTML. */
function largestOf(folder: string): string {
  const files = readdirSync(folder).filter((name) => name.endsWith(".md"));
  const [largest] = files.sort((a, b) => statSync(join(folder, b)).size - statSync(join(folder, a)).size);
  return (largest ?? "").replace(/\.md$/, "");
}

test("the largest article and case study each send at most 30 KB of HTML, gzipped", async ({ request }) => {
  for (const path of [
    `/insights/${largestOf(`${FIXTURE_CONTENT_DIR}/insights`)}`,
    `/case-studies/${largestOf(`${FIXTURE_CONTENT_DIR}/case-studies`)}`,
  ]) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(200);
    const gzip = gzipBytes(await response.body());
    const budget = htmlBudgetOf(path);
    expect(budget).toBe(30 * 1024);
    console.log(`${path} HTML ${against(gzip, budget)}`);
    expect(gzip, `${path} HTML`).toBeLessThanOrEqual(budget);
  }
});
