import { holdClientBundle } from "../support/client-bundle";
import { expect, test } from "../support/fixtures";
import { isHydratedAndRendered } from "../support/page-clock";

const labels = [
  "Website Development",
  "Mobile App Development",
  "SaaS Development",
  "eCommerce Development",
  "Web Application Development",
];

test.describe("services at 1280 px: vertical tabs", () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test("the first service is selected and only its panel and image show", async ({ page }) => {
    await page.goto("/#services");
    const tablist = page.getByRole("tablist", { name: "Our Services" });
    await expect(tablist).toHaveAttribute("aria-orientation", "vertical");
    const tabs = tablist.getByRole("tab");
    await expect(tabs).toHaveText(labels.map((label) => new RegExp(`${label}$`)));
    await expect(tabs.first()).toHaveAttribute("aria-selected", "true");
    const panel = page.getByRole("tabpanel");
    await expect(panel).toHaveCount(1);
    await expect(panel).toHaveAccessibleName(/Website Development/);
    await expect(panel.getByRole("heading", { name: "Website Development" })).toBeVisible();
    await expect(panel.getByRole("link", { name: "Explore Website Development" })).toHaveAttribute(
      "href",
      "#contact",
    );
    // Only the visible panel's image is rendered among the tabs, so hidden panels cost no bytes
    // (the disclosures kept for narrow screens are not displayed, their image the same file).
    await expect(page.locator("#services img:visible")).toHaveCount(1);
    await expect(page.locator('#services [data-services-variant="tabs"] img')).toHaveCount(1);
    await expect(panel.getByRole("img")).toHaveJSProperty("complete", true);
  });

  test("arrow keys, Home and End move selection and focus (roving tabindex)", async ({ page }) => {
    await page.goto("/#services");
    // The tabs are served as they look once hydrated (no height changes at hydration); the keys
    // are theirs once React has hydrated the section.
    await expect.poll(() => isHydratedAndRendered(page)).toBe(true);
    const tabs = page.getByRole("tab");
    await tabs.first().focus();
    await page.keyboard.press("ArrowDown");
    await expect(tabs.nth(1)).toBeFocused();
    await expect(tabs.nth(1)).toHaveAttribute("aria-selected", "true");
    await expect(tabs.nth(0)).toHaveAttribute("aria-selected", "false");
    await expect(tabs.nth(0)).toHaveAttribute("tabindex", "-1");
    await expect(tabs.nth(1)).toHaveAttribute("tabindex", "0");
    await expect(page.getByRole("tabpanel")).toHaveAccessibleName(/Mobile App Development/);

    await page.keyboard.press("ArrowRight");
    await expect(tabs.nth(2)).toBeFocused();
    await page.keyboard.press("End");
    await expect(tabs.nth(4)).toBeFocused();
    await expect(tabs.nth(4)).toHaveAttribute("aria-selected", "true");
    await expect(page.getByRole("tabpanel")).toHaveAccessibleName(/Web Application Development/);
    await page.keyboard.press("ArrowDown");
    await expect(tabs.nth(0)).toBeFocused();
    await page.keyboard.press("ArrowUp");
    await expect(tabs.nth(4)).toBeFocused();
    await page.keyboard.press("Home");
    await expect(tabs.nth(0)).toBeFocused();
    await expect(tabs.nth(0)).toHaveAttribute("aria-selected", "true");
    await page.keyboard.press("ArrowLeft");
    await expect(tabs.nth(4)).toBeFocused();

    // Tab leaves the list for the panel: only one tab is in the tab order.
    await page.keyboard.press("Tab");
    await expect(page.getByRole("tabpanel")).toBeFocused();
  });

  test("clicking a tab shows its panel and loads its image", async ({ page }) => {
    await page.goto("/#services");
    // A click is the tabs' once React has hydrated the section.
    await expect.poll(() => isHydratedAndRendered(page)).toBe(true);
    await page.getByRole("tab", { name: "SaaS Development" }).click();
    const panel = page.getByRole("tabpanel");
    await expect(panel).toHaveAccessibleName(/SaaS Development/);
    await expect(panel.getByRole("img")).toHaveAttribute("alt", /SaaS dashboard/);
    await expect(panel.getByRole("link", { name: "Explore SaaS Development" })).toBeVisible();
    await expect(page.locator("#services img:visible")).toHaveCount(1);
  });

  test("769 px still shows tabs; 768 px switches to the accordion", async ({ page }) => {
    await page.setViewportSize({ width: 769, height: 800 });
    await page.goto("/");
    await expect(page.getByRole("tablist")).toBeVisible();
    await expect(page.locator("#services details").first()).toBeHidden();
    await page.setViewportSize({ width: 768, height: 800 });
    await expect(page.getByRole("tablist")).toBeHidden();
    await expect(page.locator("#services details[open] summary")).toHaveText(["Website Development"]);
  });

  test("the selected service stays selected across 768 px, both ways", async ({ page }) => {
    await page.goto("/#services");
    await expect.poll(() => isHydratedAndRendered(page)).toBe(true);
    await page.getByRole("tab", { name: "SaaS Development" }).click();
    await page.setViewportSize({ width: 768, height: 800 });
    await expect(page.locator("#services details[open] summary")).toHaveText(["SaaS Development"]);

    await page.locator("#services summary", { hasText: "eCommerce Development" }).click();
    await expect(page.locator("#services details[open] summary")).toHaveText(["eCommerce Development"]);
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect(page.getByRole("tab", { name: "eCommerce Development" })).toHaveAttribute(
      "aria-selected",
      "true",
    );
    await expect(page.getByRole("tabpanel")).toHaveAccessibleName(/eCommerce Development/);
  });
});

test.describe("services at 375 px: accordion", () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test("opens one service at a time, in the very elements the server sent", async ({ page }) => {
    const release = await holdClientBundle(page);
    await page.goto("/#services");
    const disclosures = page.locator("#services details");
    await expect(disclosures.locator("summary")).toHaveText(labels);
    await expect(page.locator("#services details[open] summary")).toHaveText(["Website Development"]);
    await disclosures.evaluateAll((elements) => {
      for (const element of elements) element.setAttribute("data-served", "");
    });
    release();
    await expect.poll(() => isHydratedAndRendered(page)).toBe(true);
    await expect(page.getByRole("tablist")).toBeHidden();
    // Hydration removed and added nothing: the accordion is the server's disclosures.
    await expect(page.locator("#services details[data-served]:visible")).toHaveCount(5);

    await disclosures.nth(3).locator("summary").click();
    await expect(page.locator("#services details[open] summary")).toHaveText(["eCommerce Development"]);
    await expect(page.getByRole("link", { name: "Explore eCommerce Development" })).toBeVisible();
    await expect(page.locator("#services img:visible")).toHaveCount(1);

    // A header closes its own service with the keyboard too, leaving none open.
    await disclosures.nth(3).locator("summary").press("Enter");
    await expect(page.locator("#services details[open]")).toHaveCount(0);
  });
});

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 375, height: 812 },
]) {
  test.describe(`services without JavaScript at ${viewport.width} px`, () => {
    test.use({ javaScriptEnabled: false, viewport });

    test("every service is reachable through native disclosures", async ({ page }) => {
      await page.goto("/");
      const disclosures = page.locator("#services details");
      await expect(disclosures).toHaveCount(5);
      await expect(disclosures.locator("summary")).toHaveText(labels);
      await expect(disclosures.first()).toHaveAttribute("open", "");
      await expect(page.getByRole("link", { name: "Explore Website Development" })).toBeVisible();

      // The first is open already: open the others, then the first again.
      for (const index of [1, 2, 3, 4, 0]) {
        const label = labels[index] ?? "";
        await disclosures.nth(index).locator("summary").click();
        await expect(disclosures.nth(index)).toHaveAttribute("open", "");
        await expect(page.getByRole("link", { name: `Explore ${label}` })).toBeVisible();
        await expect(disclosures.nth(index).getByRole("img")).toBeVisible();
        // Exclusive: opening one closes the others.
        await expect(page.locator("#services details[open]")).toHaveCount(1);
      }
    });

    test("Explore links have distinct names and go to the contact section", async ({ page }) => {
      await page.goto("/");
      // The served tabs, kept for a wide screen with JavaScript, are not displayed.
      const links = page.locator('#services [data-services-variant="disclosures"] a', { hasText: "Explore" });
      await expect(links).toHaveCount(5);
      for (const [index, label] of labels.entries()) {
        // Closed disclosures hide their content from the accessibility tree; the text is the name.
        await expect(links.nth(index)).toHaveText(`Explore ${label}`);
        await expect(links.nth(index)).toHaveAttribute("href", "#contact");
      }
    });
  });
}

test("'How We Deliver Value' shows six cards with icons", async ({ page }) => {
  await page.goto("/");
  const section = page.getByRole("region", { name: "How We Deliver Value" });
  await expect(section.getByRole("heading", { level: 2 })).toHaveText("How We Deliver Value");
  await expect(section.getByRole("heading", { level: 3 })).toHaveText([
    "Exclusive Development Squad",
    "Supervised Endeavors",
    "Technology Talent Acquisition",
    "Marketing for Scalability",
    "Product & Platforms",
    "Startup Venture Studio",
  ]);
  const cards = section.getByRole("listitem");
  await expect(cards).toHaveCount(6);
  for (const card of await cards.all()) {
    await expect(card.locator("svg[aria-hidden=true]")).toHaveCount(1);
    expect((await card.locator("p").textContent())?.length ?? 0).toBeGreaterThan(60);
  }
});
