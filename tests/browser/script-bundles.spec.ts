import { createHash } from "node:crypto";
import type { Page } from "@playwright/test";
import { siteRoutes } from "../../bench/lib/site-routes";
import { BUNDLED_PAGES, documentSendsBundle } from "../support/bundle-routes";
import { expect, test } from "../support/fixtures";
import { expectSameAsWithoutJavaScript } from "../support/no-script-page";

/** Every page of app/routes, as Remix reads the folder: a page added later is checked unlisted. */
const pages = (await siteRoutes(process.cwd())).filter((route) => route.page).map((route) => route.path);
const withoutBundle = pages.filter((path) => !BUNDLED_PAGES.includes(path));

test.use({ allowedProblems: [/^HTTP 404 .*\/no-such-page/] });

test("only the pages with interactive parts send a script bundle", async ({ request }) => {
  expect(pages).toContain("/");
  expect(withoutBundle.length).toBeGreaterThan(0);
  const sending: string[] = [];
  for (const path of pages) {
    const html = await (await request.get(path)).text();
    expect(html).toContain("</html>");
    if (documentSendsBundle(html)) sending.push(path);
  }
  // A page that starts to send one must be listed in tests/support/bundle-routes.ts, on purpose.
  expect(sending, "the pages whose document references the app's JavaScript").toEqual([...BUNDLED_PAGES]);
});

/** The page's inline scripts that run (JSON-LD is data), and every script the browser fetched. */
async function scriptsOf(page: Page, requested: string[]) {
  return {
    inline: await page.evaluate(() =>
      [...document.scripts]
        .filter((script) => !script.src && script.type !== "application/ld+json")
        .map((script) => script.text),
    ),
    fetched: requested.filter((url) => /\.m?js(\?|$)/.test(new URL(url).pathname)),
  };
}

for (const path of withoutBundle) {
  test.describe(path, () => {
    test("runs only its two inline scripts, allowed by the CSP, and looks as it does without JavaScript", async ({
      page,
    }) => {
      const requested: string[] = [];
      page.on("request", (request) => requested.push(request.url()));
      const response = await page.goto(path);
      await page.waitForLoadState("networkidle");
      const { inline, fetched } = await scriptsOf(page, requested);
      expect(fetched).toEqual([]);
      expect(inline).toHaveLength(2);
      // Small: the field-metrics reporter (with a landing's campaign and the WhatsApp taps'
      // count) and the campaign links' script; what they weigh in the page, the budgets hold.
      for (const text of inline) expect(text.length).toBeLessThan(4_000);
      const policy = response?.headers()["content-security-policy"] ?? "";
      if (/'nonce-/.test(policy)) {
        // The not-found page is this request's: its scripts run by nonce.
        expect(await page.evaluate(() => [...document.scripts].every((script) => script.nonce !== ""))).toBe(
          true,
        );
      } else {
        for (const text of inline) {
          expect(policy).toContain(`'sha256-${createHash("sha256").update(text).digest("base64")}'`);
        }
      }
      expect(await page.evaluate(() => "__remixRouter" in window || "__remixContext" in window)).toBe(false);
      await expectSameAsWithoutJavaScript(page);
    });

    test("its footer's policy link and menu are plain links, as without JavaScript", async ({ page }) => {
      await page.setViewportSize({ width: 1023, height: 800 });
      await page.goto(path);
      const drawer = page.locator("#site-menu");
      await page.getByRole("link", { name: "Open menu" }).click();
      await expect(drawer).toBeVisible();
      await expect(page).toHaveURL(/#site-menu$/);
      await drawer.getByRole("link", { name: "Close menu" }).click();
      await expect(drawer).toBeHidden();
      const terms = page.getByRole("contentinfo").getByRole("link", { name: "Terms of Service" });
      await expect(terms).not.toHaveAttribute("aria-haspopup");
      await terms.click();
      await expect(page).toHaveURL(/\/terms-conditions$/);
      await expect(page.getByRole("dialog")).toHaveCount(0);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Terms of Service");
    });

    test("a campaign's parameters go on with its links to the site's pages, and nothing is stored", async ({
      page,
      context,
    }) => {
      const campaign = "utm_source=newsletter&utm_campaign=launch&gclid=CLICK123";
      await page.goto(`${path}?${campaign}`);
      const footer = page.getByRole("contentinfo");
      await expect(footer.getByRole("link", { name: "Hire QA Engineers" })).toHaveAttribute(
        "href",
        `/?${campaign}#contact`,
      );
      await expect(footer.getByRole("link", { name: "Cookie Policy" })).toHaveAttribute(
        "href",
        `/cookie-policy?${campaign}`,
      );
      // Links within the page, to files and to other sites are left as they are.
      await expect(page.getByRole("link", { name: /skip to content/i })).toHaveAttribute("href", "#main");
      await expect(footer.getByRole("link", { name: /@/ }).first()).toHaveAttribute("href", /^mailto:[^?]+$/);
      await footer.getByRole("link", { name: "Hire QA Engineers" }).click();
      await expect(page).toHaveURL(new RegExp(`/\\?${campaign}#contact$`));
      expect(await context.cookies()).toEqual([]);
      expect(await page.evaluate(() => [localStorage.length, sessionStorage.length])).toEqual([0, 0]);
    });
  });
}
