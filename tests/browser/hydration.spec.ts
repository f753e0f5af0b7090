import { expect, test } from "../support/fixtures";

test("the page paints before its JavaScript is fetched, then hydrates without errors", async ({ page }) => {
  await page.goto("/");
  // Hydrated: the policy links announce their dialogs.
  await expect(page.getByRole("contentinfo").getByRole("link", { name: "Privacy Policy" })).toHaveAttribute(
    "aria-haspopup",
    "dialog",
  );
  const { firstPaint, scriptStarts } = await page.evaluate(() => ({
    firstPaint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? Number.NaN,
    scriptStarts: performance
      .getEntriesByType("resource")
      .filter((entry) => entry.name.includes("/build/") && entry.name.endsWith(".js"))
      .map((entry) => entry.startTime),
  }));
  expect(scriptStarts.length).toBeGreaterThan(3);
  for (const start of scriptStarts) expect(start).toBeGreaterThanOrEqual(firstPaint);
  // The fixture fails the test on any hydration error (React #418) or CSP violation.
});
