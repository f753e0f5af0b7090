import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { promisify } from "node:util";
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { waitForHydration } from "../support/enquiry-page";
import { fixture } from "../support/fixture-content";
import { expect, test } from "../support/fixtures";
import { serveWithoutScripts } from "../support/no-script-page";

// "Chat on WhatsApp" on the built site (the default test server, whose data folder is
// test-results/store-<port>): a plain wa.me link without JavaScript; with it, the message names
// the campaign the visit came from and each tap is counted in `npm run vitals`.

// axe on a loaded two-core machine takes tens of seconds.
test.describe.configure({ timeout: 150_000 });

/** The link's number, words and greeting, as the tests' content gives them. */
const whatsapp = fixture("contact").whatsapp;
if (!whatsapp) throw new Error("tests/fixtures/content/contact.yml must have a WhatsApp number");
const GREETING = whatsapp.greeting;
const CHAT = `https://wa.me/${whatsapp.number}`;
const HREF = `${CHAT}?text=${encodeURIComponent(GREETING)}`;

/** The two links: beside the form in #contact, and in the footer. */
const links = (page: Page) => ({
  contact: page.locator("#contact").getByRole("link", { name: /WhatsApp/ }),
  footer: page.locator("footer").getByRole("link", { name: /WhatsApp/ }),
});

/** `npm run vitals` on the default test server's data folder. */
async function vitals(): Promise<string> {
  const port = new URL(test.info().project.use.baseURL ?? "").port;
  const { stdout } = await promisify(execFile)(process.execPath, [join(process.cwd(), "build/vitals.js")], {
    env: {
      PATH: process.env.PATH ?? "",
      NODE_ENV: "production",
      ENQUIRY_STORE_DIR: `test-results/store-${port}`,
    },
  });
  return stdout;
}

for (const width of [1280, 375]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 800 } });

    test.describe("without JavaScript", () => {
      test.use({ javaScriptEnabled: false });

      test("both links go to wa.me with the number in international digits and the greeting, even from a campaign", async ({
        page,
      }) => {
        await page.goto("/?utm_source=google&utm_campaign=spring-launch#contact");
        for (const link of Object.values(links(page))) {
          await expect(link).toHaveAttribute("href", HREF);
          await expect(link).toHaveAccessibleName(`${whatsapp.label} (opens in a new tab)`);
          await expect(link.locator("svg")).toHaveAttribute("aria-hidden", "true");
          await expect(link).toBeVisible();
        }
      });
    });

    test("axe finds nothing around the links on the page without its scripts", async ({ page }) => {
      // axe runs inside the page: it gets the no-JS document with its script engine on.
      await serveWithoutScripts(page);
      await page.goto("/#contact");
      await expect(links(page).contact).toHaveAttribute("href", HREF);
      const results = await new AxeBuilder({ page }).include("#contact").include("footer").analyze();
      expect(results.violations).toEqual([]);
    });

    test.describe("with JavaScript", () => {
      test("a tap from a campaign opens the chat naming it, leaves the address and cookies as they were, and is counted per campaign", async ({
        page,
        context,
      }) => {
        const campaign = `Diwali-${randomUUID().slice(0, 8)}`;
        const landing = `/?utm_source=google&utm_campaign=${encodeURIComponent(`${campaign}<b>!`)}#contact`;
        await page.goto(landing);
        await waitForHydration(page);
        const opened: string[] = [];
        // WhatsApp itself is never reached: the test answers for it.
        await context.route("https://wa.me/**", async (route) => {
          opened.push(route.request().url());
          await route.fulfill({ contentType: "text/html", body: "<title>WhatsApp</title>" });
        });
        await expect(links(page).contact).toHaveAttribute("href", HREF);
        const popup = context.waitForEvent("page");
        await links(page).contact.click();
        await (await popup).close();
        expect(opened).toEqual([`${CHAT}?text=${encodeURIComponent(`${GREETING} (${campaign}b)`)}`]);
        expect(new URL(page.url()).search).toBe(new URL(landing, "http://x").search);
        expect(await context.cookies()).toEqual([]);
        await expect.poll(vitals, { timeout: 20_000 }).toMatch(new RegExp(`^${campaign}b\\s+1$`, "m"));

        // A second tap, in the footer: the message names the campaign once; the count is 2.
        const again = context.waitForEvent("page");
        await links(page).footer.click();
        await (await again).close();
        expect(opened[1]).toBe(opened[0]);
        await expect.poll(vitals, { timeout: 20_000 }).toMatch(new RegExp(`^${campaign}b\\s+2$`, "m"));
        const results = await new AxeBuilder({ page }).include("#contact").include("footer").analyze();
        expect(results.violations).toEqual([]);
      });
    });
  });
}

test("a campaign of 40 characters whose last is a surrogate pair is named whole in the chat, and the tap is counted", async ({
  page,
  context,
}) => {
  // 39 UTF-16 units then `𝐀` (two units): a cut by units would end inside the pair.
  const campaign = `${randomUUID().slice(0, 8)}${"a".repeat(31)}𝐀`;
  await page.goto(`/?utm_campaign=${encodeURIComponent(`${campaign}more`)}#contact`);
  await waitForHydration(page);
  const opened: string[] = [];
  await context.route("https://wa.me/**", async (route) => {
    opened.push(route.request().url());
    await route.fulfill({ contentType: "text/html", body: "<title>WhatsApp</title>" });
  });
  const popup = context.waitForEvent("page");
  await links(page).contact.click();
  await (await popup).close();
  expect(opened).toEqual([`${CHAT}?text=${encodeURIComponent(`${GREETING} (${campaign})`)}`]);
  await expect.poll(vitals, { timeout: 20_000 }).toMatch(new RegExp(`^${campaign}\\s+1$`, "mu"));
});

test("the privacy policy names WhatsApp as a way to reach the agency", async ({ page }) => {
  await page.goto("/privacy-policy");
  await expect(page.getByText("You can also reach us on WhatsApp, at +91 98860 41725")).toBeVisible();
  await expect(page.getByRole("listitem").filter({ hasText: "WhatsApp: +91 98860 41725" })).toBeVisible();
});
