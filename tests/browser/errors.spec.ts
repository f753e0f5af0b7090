import { pageWords } from "~/content/page-words";
import { expect, test } from "../support/fixtures";

for (const javaScriptEnabled of [true, false]) {
  test.describe(`${javaScriptEnabled ? "with" : "without"} JavaScript`, () => {
    test.use({ javaScriptEnabled, allowedProblems: [/^HTTP 404 .*\/no-such-page/] });

    test("an unknown path answers 404 with the full-height illustration and no text", async ({ page }) => {
      const response = await page.goto("/no-such-page/at/all");
      expect(response?.status()).toBe(404);
      const main = page.getByRole("main");
      // The illustration is the page's heading: a name for assistive technology, no visible text.
      await expect(main.getByRole("heading", { level: 1 })).toHaveAccessibleName(/not found/i);
      const image = main.getByRole("img");
      await expect(image).toBeVisible();
      await expect(image).toHaveAttribute("alt", /not found/i);
      expect((await main.textContent())?.trim()).toBe("");
      const [imageBox, viewport] = [await image.boundingBox(), page.viewportSize()];
      // Centred horizontally within the page.
      expect(Math.abs((imageBox?.x ?? 0) * 2 + (imageBox?.width ?? 0) - (viewport?.width ?? 0))).toBeLessThan(
        4,
      );
      await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");
      await expect(page.getByRole("banner")).toBeVisible();
      await expect(page.getByRole("contentinfo")).toBeVisible();
    });
  });
}

test("a thrown error renders the branded error page with its status", async ({ request }) => {
  const response = await request.post("/cookie-policy", { form: { anything: "1" } });
  expect(response.status()).toBe(405);
  const html = await response.text();
  // The error pages' words are the content's (content/pages.yml; the tests' own here).
  const words = pageWords.errors;
  expect(html).toContain(words.status.replace("{status}", "405"));
  expect(html).toContain(
    words.statuses.find(({ status }) => status === 405)?.title.replaceAll("'", "&#x27;"),
  );
  expect(html).toContain(words.home);
  expect(html).not.toContain("Unexpected Application Error");
});
