import { expect, test } from "../support/fixtures";

test("home page renders its headline", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toContainText(
    "Pioneering Purposeful Digital Products",
  );
});
