/**
 * The one test of the content that ships (content/, not the tests' own): every field whose words
 * the product specification quotes still says them. `npm run test:specification` runs it alone;
 * a difference names the file and the field, and the field's hint at /admin says the same.
 */
import { resolve } from "node:path";
import { expect, test } from "vitest";
import { formatFault, loadContent } from "../../scripts/lib/content/load";
import { specificationDifferences } from "../../scripts/lib/content/specified-words";

test("content/ says what the product specification quotes", async () => {
  const root = resolve(import.meta.dirname, "../..");
  const { content, faults } = await loadContent(root);
  expect(faults.map(formatFault), "content/ is valid (npm run build:content names each fault)").toEqual([]);
  expect(specificationDifferences(content)).toEqual([]);
});
