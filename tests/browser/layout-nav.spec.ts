import type { Page } from "@playwright/test";
import { waitForHydration } from "../support/enquiry-page";
import { expect, test } from "../support/fixtures";
import { scrollYAtRest } from "../support/scroll";

const mainNav = (page: Page) => page.getByRole("banner").getByRole("navigation", { name: "Main" });
const drawer = (page: Page) => page.locator("#site-menu");

test.describe("navigation bar at 1280 px", () => {
  test("shows the five items inline and highlights the one matching the URL hash", async ({ page }) => {
    await page.goto("/");
    const nav = mainNav(page);
    await expect(nav.getByRole("link")).toHaveText(["Home", "Services", "Reviews", "Insights", "LET'S TALK"]);
    await expect(page.getByRole("button", { name: "Open menu" })).toBeHidden();
    await expect(nav.getByRole("link", { name: "Home" })).toHaveAttribute("aria-current", "location");

    await nav.getByRole("link", { name: "Services" }).click();
    await expect(page).toHaveURL(/#services$/);
    await expect(nav.getByRole("link", { name: "Services" })).toHaveAttribute("aria-current", "location");
    await expect(nav.getByRole("link", { name: "Home" })).not.toHaveAttribute("aria-current", /.*/);
    await expect(page.locator("#services")).toBeInViewport();

    await nav.getByRole("link", { name: "LET'S TALK" }).click();
    await expect(page).toHaveURL(/#contact$/);
    await expect(nav.getByRole("link", { name: "LET'S TALK" })).toHaveAttribute("aria-current", "location");
    await expect(page.locator("#contact")).toBeInViewport();

    await nav.getByRole("link", { name: "Home" }).click();
    await expect(page).toHaveURL(/#top$/);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  });

  test("highlights the item of a hash the page was opened with", async ({ page }) => {
    await page.goto("/#testimonial");
    await expect(mainNav(page).getByRole("link", { name: "Reviews" })).toHaveAttribute(
      "aria-current",
      "location",
    );
  });

  test("changes style once scrolled more than 50 px", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    const header = page.getByRole("banner");
    await expect(header).toHaveAttribute("data-scrolled", "false");
    const shadowAtTop = await header.evaluate((element) => getComputedStyle(element).boxShadow);
    await page.evaluate(() => window.scrollTo(0, 50));
    // At rest there, two frames have passed since: the scroll event and its render are done.
    await expect.poll(() => scrollYAtRest(page)).toBe(50);
    await expect(header).toHaveAttribute("data-scrolled", "false");
    await page.evaluate(() => window.scrollTo(0, 51));
    await expect(header).toHaveAttribute("data-scrolled", "true");
    await expect
      .poll(() => header.evaluate((element) => getComputedStyle(element).boxShadow))
      .not.toBe(shadowAtTop);
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect(header).toHaveAttribute("data-scrolled", "false");
  });

  test("leads to the home page's anchors from other pages", async ({ page }) => {
    await page.goto("/cookie-policy");
    const nav = mainNav(page);
    await expect(nav.getByRole("link", { name: "Insights" })).toHaveAttribute("href", "/#insights");
    await expect(nav.getByRole("link", { name: "Home" })).toHaveAttribute("href", "/");
    await nav.getByRole("link", { name: "Insights" }).click();
    await expect(page).toHaveURL(/\/#insights$/);
    await expect(page.locator("#insights")).toBeInViewport();
  });
});

test.describe("inline links at exactly 1024 px", () => {
  test.use({ viewport: { width: 1024, height: 768 } });

  test("keep the links in the bar and no menu button", async ({ page }) => {
    await page.goto("/");
    await expect(mainNav(page).getByRole("link", { name: "Services" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Open menu" })).toBeHidden();
  });
});

test.describe("drawer at 1023 px", () => {
  test.use({ viewport: { width: 1023, height: 800 } });

  test("opens full screen from the menu button and closes when a link is chosen", async ({ page }) => {
    await page.goto("/");
    await expect(mainNav(page)).toBeHidden();
    const menuButton = page.getByRole("button", { name: "Open menu" });
    await expect(menuButton).toHaveAttribute("aria-expanded", "false");
    await menuButton.click();
    const dialog = page.getByRole("dialog", { name: "Menu" });
    await expect(dialog).toBeVisible();
    await expect(menuButton).toHaveAttribute("aria-expanded", "true");
    await dialog.evaluate((element) =>
      Promise.all(element.getAnimations().map((animation) => animation.finished)),
    );
    const box = await dialog.boundingBox();
    expect(box).toMatchObject({ x: 0, y: 0, width: 1023, height: 800 });

    await dialog.getByRole("link", { name: "Insights" }).click();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/#insights$/);
    await expect(page.locator("#insights")).toBeInViewport();
  });

  test("is modal from the keyboard: focus trapped, Escape closes, focus returns", async ({ page }) => {
    await page.goto("/");
    const menuButton = page.getByRole("button", { name: "Open menu" });
    await menuButton.focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Menu" });
    await expect(dialog).toBeVisible();

    const focusables = await dialog.locator("a[href], button").count();
    for (let step = 0; step < focusables * 2 + 1; step++) {
      await page.keyboard.press("Tab");
      expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    }
    for (let step = 0; step < focusables + 1; step++) {
      await page.keyboard.press("Shift+Tab");
      expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    }

    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(menuButton).toBeFocused();
    await expect(menuButton).toHaveAttribute("aria-expanded", "false");
  });

  test("closes from its close button", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("button", { name: "Open menu" }).click();
    const dialog = page.getByRole("dialog", { name: "Menu" });
    await dialog.getByRole("button", { name: "Close menu" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole("button", { name: "Open menu" })).toBeFocused();
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the bar's links are plain anchors that work", async ({ page }) => {
    await page.goto("/");
    await mainNav(page).getByRole("link", { name: "Reviews" }).click();
    await expect(page).toHaveURL(/#testimonial$/);
    await expect(page.locator("#testimonial")).toBeInViewport();
  });

  test.describe("at 1023 px", () => {
    test.use({ viewport: { width: 1023, height: 800 } });

    test("the menu opens the drawer and choosing a link closes it", async ({ page }) => {
      await page.goto("/");
      await expect(drawer(page)).toBeHidden();
      await page.getByRole("link", { name: "Open menu" }).click();
      await expect(drawer(page)).toBeVisible();
      await drawer(page).getByRole("link", { name: "Services" }).click();
      await expect(page).toHaveURL(/#services$/);
      await expect(drawer(page)).toBeHidden();
      await expect(page.locator("#services")).toBeInViewport();
    });

    test("the drawer's close link closes it", async ({ page }) => {
      await page.goto("/");
      await page.getByRole("link", { name: "Open menu" }).click();
      await expect(drawer(page)).toBeVisible();
      await drawer(page).getByRole("link", { name: "Close menu" }).click();
      await expect(drawer(page)).toBeHidden();
    });
  });
});

test.describe("skip link", () => {
  test("is the first stop for the keyboard and moves focus to the content", async ({ page }) => {
    await page.goto("/");
    await page.keyboard.press("Tab");
    const skip = page.getByRole("link", { name: "Skip to content" });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await page.keyboard.press("Enter");
    await expect(page.locator("main")).toBeFocused();
  });
});
