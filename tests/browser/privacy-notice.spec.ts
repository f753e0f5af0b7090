import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { PRIVACY_NOTICE_VERSION } from "../../app/privacy-notice";
import { privacyNoticeEnglish } from "../../app/privacy-notice/en";
import { enquiryForm, fillEnquiry, NOTICE, validEnquiry, waitForHydration } from "../support/enquiry-page";
import { test as base, expect } from "../support/fixtures";
import { settledLayoutShift } from "../support/layout-shift";
import { type RunningServer, startServer } from "../support/server-process";

// One server for the file, configured as an operator would: the notice must say what it says.
const test = base.extend<object, { app: RunningServer }>({
  app: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
    async ({}, use) => {
      const server = await startServer({
        env: {
          ENQUIRY_RETENTION_DAYS: "45",
          PRIVACY_CONTACT: "Asha Rao <privacy@nirmaan.digital>",
          ENQUIRY_RATE_LIMIT: "0",
        },
      });
      await use(server);
      await server.stop();
    },
    { scope: "worker", timeout: 60_000 },
  ],
  baseURL: async ({ app }, use) => use(app.url),
});

const viewports = [
  { width: 1280, height: 800 },
  { width: 375, height: 812 },
];

const ITEMS = [
  "What we collect:",
  "Why:",
  "Who receives it:",
  "How long we keep it:",
  "Your choices:",
  "Complaints:",
];

function privacyNotice(page: Page) {
  const notice = page.locator("#privacy-notice");
  return {
    notice,
    english: notice.locator('.privacy-notice-text[lang="en"]'),
    hindi: notice.locator('.privacy-notice-text[lang="hi"]'),
    // The radio buttons are named by their visible language and the notice's own heading.
    showEnglish: notice.getByRole("radio", { name: "Privacy notice: English" }),
    showHindi: notice.getByRole("radio", { name: "गोपनीयता सूचना: हिन्दी" }),
  };
}

/** The server's enquiry log lines, parsed. */
function enquiryLines(app: RunningServer): { outcome: string; privacyNotice?: string }[] {
  return app
    .output()
    .split("\n")
    .filter((line) => line.startsWith('{"event":"enquiry"'))
    .map((line) => JSON.parse(line));
}

for (const javaScriptEnabled of [true, false]) {
  for (const viewport of viewports) {
    test.describe(`${javaScriptEnabled ? "with" : "without"} JavaScript at ${viewport.width} px`, () => {
      test.use({ javaScriptEnabled, viewport });

      test("the privacy notice is shown before Submit, itemised, and in Hindi at the switch", async ({
        page,
      }) => {
        await page.goto("/");
        if (javaScriptEnabled) await waitForHydration(page);
        const { notice, english, hindi, showEnglish, showHindi } = privacyNotice(page);
        const { submit } = enquiryForm(page);
        // In the form, before the Submit button's own row, and above it on screen.
        await expect(enquiryForm(page).form.locator("#privacy-notice + div").getByRole("button")).toHaveText(
          "Submit",
        );
        await notice.scrollIntoViewIfNeeded();
        await expect(english.getByRole("heading", { name: "Privacy notice" })).toBeVisible();
        for (const item of ITEMS) await expect(english.getByText(item, { exact: true })).toBeVisible();
        await expect(english).toContainText("45 days from its arrival");
        await expect(english).toContainText("complain to the Data Protection Board of India");
        await expect(hindi).toBeHidden();
        await expect(showEnglish).toBeChecked();
        const noticeBox = await notice.boundingBox();
        const submitBox = await submit.boundingBox();
        expect(noticeBox && submitBox && noticeBox.y + noticeBox.height <= submitBox.y).toBe(true);
        await expect(notice.getByRole("checkbox")).toHaveCount(0);

        await showHindi.check();
        await expect(hindi).toBeVisible();
        await expect(english).toBeHidden();
        await expect(hindi.getByRole("heading", { name: "गोपनीयता सूचना" })).toBeVisible();
        await expect(hindi).toContainText("45 दिन");
        await expect(hindi.getByRole("listitem")).toHaveCount(ITEMS.length);
        await showEnglish.check();
        await expect(english).toBeVisible();
        await expect(hindi).toBeHidden();
      });

      test("its e-mail links are written to the privacy contact, and its policy link opens the policy", async ({
        page,
      }) => {
        await page.goto("/");
        if (javaScriptEnabled) await waitForHydration(page);
        const { english } = privacyNotice(page);
        await english.scrollIntoViewIfNeeded();
        // The links' labels, read from the notice's text.
        const label = (target: string) =>
          new RegExp(`\\[([^\\]]+)\\]\\(${target}\\)`).exec(privacyNoticeEnglish.items.rights.text)?.[1] ??
          "";
        await expect(english.getByRole("link", { name: label("withdraw") })).toHaveAttribute(
          "href",
          "/privacy/withdraw",
        );
        await expect(privacyNotice(page).hindi.locator('a[href="/privacy/withdraw?lang=hi"]')).toHaveCount(1);
        const erase = english.getByRole("link", { name: label("erase"), exact: true });
        const mail = new URL((await erase.getAttribute("href")) ?? "");
        expect(mail.protocol + mail.pathname).toBe("mailto:privacy@nirmaan.digital");
        expect(mail.searchParams.get("subject")).toBe("Withdraw my consent and erase my data");
        const policyLink = english.getByRole("link", { name: "Privacy Policy" });
        await policyLink.click();
        if (javaScriptEnabled) {
          const dialog = page.getByRole("dialog", { name: "Privacy Policy" });
          await expect(dialog).toBeVisible();
          await expect(dialog).toContainText("is Asha Rao, at privacy@nirmaan.digital");
          await expect(dialog).toContainText("We keep your enquiry for 45 days after it arrives");
          await expect(page).toHaveURL(/\/$/);
          await page.keyboard.press("Escape");
          await expect(dialog).toBeHidden();
          await expect(policyLink, "the focus returns to the link that opened the dialog").toBeFocused();
        } else {
          await expect(page).toHaveURL(/\/privacy-policy$/);
          await expect(page.getByRole("heading", { level: 1, name: "Privacy Policy" })).toBeVisible();
          await expect(page.getByText("We keep your enquiry for 45 days after it arrives")).toBeVisible();
        }
      });

      test.describe("refused", () => {
        // The refusal is the point: its 400 is expected.
        test.use({ allowedProblems: [/^HTTP 400 /] });

        test("a refused enquiry comes back with the notice in the language its sender chose", async ({
          page,
        }) => {
          await page.goto("/");
          if (javaScriptEnabled) await waitForHydration(page);
          const { english, hindi, showHindi } = privacyNotice(page);
          await fillEnquiry(page, validEnquiry({ email: "not an address" }));
          await showHindi.check();
          const answer = page.waitForResponse((response) => response.request().method() === "POST");
          await enquiryForm(page).submit.click();
          // Without JavaScript the page is the server's again, rendered for this refusal.
          if (!javaScriptEnabled) expect((await answer).status()).toBe(400);
          await expect(enquiryForm(page).notice).toHaveText(NOTICE.invalid);
          await expect(showHindi).toBeChecked();
          await expect(hindi).toBeVisible();
          await expect(english).toBeHidden();
        });
      });

      test("the enquiry posts the version and language shown, and the server reads them", async ({
        page,
        app,
      }) => {
        const language = viewport.width === 1280 ? "hi" : "en";
        await page.goto("/");
        if (javaScriptEnabled) await waitForHydration(page);
        await fillEnquiry(page, validEnquiry());
        if (language === "hi") await privacyNotice(page).showHindi.check();
        const before = enquiryLines(app).length;
        const posted = page.waitForRequest((request) => request.method() === "POST");
        await enquiryForm(page).submit.click();
        const body = new URLSearchParams((await posted).postData() ?? "");
        expect(body.get("privacy_notice_version")).toBe(PRIVACY_NOTICE_VERSION);
        expect(body.get("privacy_notice_language")).toBe(language);
        await expect(enquiryForm(page).notice).toHaveText(NOTICE.sent);
        await expect
          .poll(() => enquiryLines(app).slice(before))
          .toEqual([
            {
              event: "enquiry",
              outcome: "stored",
              ms: expect.any(Number),
              privacyNotice: `${PRIVACY_NOTICE_VERSION} ${language}`,
            },
          ]);
      });
    });
  }
}

/**
 * axe runs in the page, which a browser without JavaScript refuses: the no-JS case is the
 * server's HTML with its scripts removed, as tests/browser/a11y.spec.ts does for every page.
 */
async function serveWithoutScripts(page: Page) {
  await page.route("/", async (route) => {
    const response = await route.fetch();
    const html = (await response.text())
      .replace(/<script\b[\s\S]*?<\/script>/gi, "")
      .replace(/<\/?noscript>/gi, "");
    await route.fulfill({ response, body: html });
  });
}

for (const javaScriptEnabled of [true, false]) {
  for (const viewport of viewports) {
    test(`axe finds nothing in the contact section in either language, ${javaScriptEnabled ? "with" : "without"} JavaScript at ${viewport.width} px`, async ({
      page,
    }) => {
      test.slow();
      await page.setViewportSize(viewport);
      if (!javaScriptEnabled) await serveWithoutScripts(page);
      await page.goto("/#contact");
      if (javaScriptEnabled) await waitForHydration(page);
      else await expect(page.locator("html")).not.toHaveClass(/\bjs\b/);
      // Contrast is judged on the settled page, not halfway through the section's fade-in.
      await expect(page.locator("#contact .reveal:not(.reveal-shown)")).toHaveCount(0);
      await page.evaluate(() =>
        // The contact section's own animations; one cancelled (replaced by the next) is at rest too.
        Promise.all(
          (document.querySelector("#contact")?.getAnimations({ subtree: true }) ?? []).map((animation) =>
            animation.finished.catch(() => undefined),
          ),
        ),
      );
      const { showHindi, hindi } = privacyNotice(page);
      expect((await new AxeBuilder({ page }).include("#contact").analyze()).violations).toEqual([]);
      await showHindi.check();
      await expect(hindi).toBeVisible();
      expect((await new AxeBuilder({ page }).include("#contact").analyze()).violations).toEqual([]);
    });
  }
}

/** Where the notice and the Submit button lie in the contact section, in CSS pixels. */
async function layoutOf(page: Page) {
  return page.evaluate(() => {
    const section = document.querySelector("#contact")?.getBoundingClientRect();
    return ["#privacy-notice", "#enquiry button[type=submit]"].map((selector) => {
      const box = document.querySelector(selector)?.getBoundingClientRect();
      return box && section && [box.x, box.y - section.y, box.width, box.height].map(Math.round);
    });
  });
}

for (const viewport of viewports) {
  test(`the notice shifts nothing while the page loads and hydrates at ${viewport.width} px`, async ({
    page,
    context,
  }) => {
    await page.setViewportSize(viewport);
    // First the page as the server sent it, its scripts held back (the inline head script runs)…
    await page.route("**/build/**/*.js", (route) => route.abort());
    await page.goto("/#privacy-notice");
    await page.evaluate(() => document.fonts.ready);
    const served = await layoutOf(page);

    // …then the same page hydrated: nothing in or around the notice moved.
    const hydrated = await context.newPage();
    await hydrated.setViewportSize(viewport);
    await hydrated.goto("/#privacy-notice");
    await waitForHydration(hydrated);
    const shift = await settledLayoutShift(hydrated);
    await expect(privacyNotice(hydrated).english).toBeInViewport();
    // A section revealed on scroll is scaled while it fades in: measure it at rest.
    await expect(hydrated.locator("#contact .reveal:not(.reveal-shown)")).toHaveCount(0);
    await hydrated.evaluate(() =>
      // The contact section's own animations; one cancelled (replaced by the next) is at rest too.
      Promise.all(
        (document.querySelector("#contact")?.getAnimations({ subtree: true }) ?? []).map((animation) =>
          animation.finished.catch(() => undefined),
        ),
      ),
    );
    expect(served.every(Boolean)).toBe(true);
    expect(await layoutOf(hydrated)).toEqual(served);
    expect(shift).toBeLessThanOrEqual(0.01);
    await hydrated.close();
  });
}
