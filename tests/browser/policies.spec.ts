import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { pageWords } from "~/content/page-words";
import { cookiePolicy, privacyPolicy, termsOfService } from "~/content/policies/index.server";
import type { Policy } from "~/content/policies/types";
import { baseURL } from "../../playwright.config";
import { expect, test } from "../support/fixtures";

/** The words of a policy's page around its text, as the content the tests run on gives them. */
const policyWords = pageWords.policy;

/** The topics each policy must cover, in order: the spec's list, written out. */
const pages: { policy: Policy; title: string; headings: string[]; sentence: string }[] = [
  {
    policy: termsOfService,
    title: "Terms of Service",
    headings: [
      "Acceptance of these terms",
      "Use of the website",
      "Copyright",
      "Privacy",
      "Intellectual property",
      "Disclaimer",
      "Limitation of liability",
      "Indemnification",
      "Modifications",
      "Governing law and jurisdiction",
      "Contact us",
    ],
    sentence: "The courts at Bengaluru, Karnataka have exclusive jurisdiction over any such dispute.",
  },
  {
    policy: privacyPolicy,
    title: "Privacy Policy",
    headings: [
      "Information we collect",
      "How we use your information",
      "Log files",
      "Advertising partners",
      "Your rights under the CCPA",
      "Your rights under the GDPR and India’s DPDP Act",
      "Children’s information",
      "How long we keep your information",
      "How we protect your information",
      "Changes to this policy",
      "Contact us",
    ],
    sentence: "We do not knowingly collect any personal information from children under the age of 13.",
  },
  {
    policy: cookiePolicy,
    title: "Cookie Policy",
    headings: [
      "What cookies are",
      "Types of cookies",
      "Cookies we use",
      "Your consent",
      "How to control cookies",
      "Your data rights",
      "Contact us",
    ],
    sentence:
      "Today the website sets no cookies, first-party or third-party, and reads none that your browser may send.",
  },
];

const siteUrl = "https://www.nirmaan.digital"; // SITE_URL of the Playwright web server

async function expectPolicyPage(page: Page, { policy, title, headings }: (typeof pages)[number]) {
  const response = await page.goto(policy.path);
  expect(response?.status()).toBe(200);

  const article = page.getByRole("article");
  await expect(article.getByRole("heading", { level: 1 })).toHaveText(title);
  const updated = article.getByText(
    new RegExp(`^${policyWords.updated.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`),
  );
  // The date each policy's content gives, spelt out independently of the page's own formatter.
  const spelt = new Date(`${policy.updated}T00:00:00Z`).toLocaleDateString("en-GB", {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  });
  await expect(updated).toHaveText(`${policyWords.updated} ${spelt}`);
  await expect(updated.locator("time")).toHaveAttribute("datetime", policy.updated);
  await expect(article.getByRole("heading", { level: 2 })).toHaveText(headings);
  await expect(article.getByRole("link", { name: "hello@nirmaan.digital" }).last()).toHaveAttribute(
    "href",
    "mailto:hello@nirmaan.digital",
  );

  await expect(page).toHaveTitle(`${title} — Nirmaan Digital`);
  await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", policy.summary);
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", `${siteUrl}${policy.path}`);
  await expect(page.locator('meta[property="og:url"]')).toHaveAttribute(
    "content",
    `${siteUrl}${policy.path}`,
  );
}

for (const entry of pages) {
  test.describe(entry.title, () => {
    test("renders its title, date, every topic and its meta", async ({ page }) => {
      await expectPolicyPage(page, entry);
      const axe = await new AxeBuilder({ page }).include("article").analyze();
      expect(axe.violations).toEqual([]);
    });

    test.describe("without JavaScript", () => {
      test.use({ javaScriptEnabled: false });

      test("renders the same page", async ({ page }) => {
        await expectPolicyPage(page, entry);
      });
    });

    test("answers a fetcher's data request with the policy, for the footer dialog", async ({ page }) => {
      await page.goto("/");
      const data = await page.evaluate(async (path) => {
        const routeId = `routes${path}`;
        const response = await fetch(`${path}.data?_routes=${encodeURIComponent(routeId)}`);
        return {
          status: response.status,
          type: response.headers.get("content-type"),
          body: await response.text(),
        };
      }, entry.policy.path);
      expect(data.status).toBe(200);
      expect(data.type).toContain("text/x-script");
      expect(data.body).toContain(entry.sentence);
      expect(data.body).toContain(entry.policy.summary);
    });
  });
}

test("the terms never mention a sign-in: the site has none", async ({ page }) => {
  await page.goto("/terms-conditions");
  const text = (await page.getByRole("article").textContent()) ?? "";
  expect(text).toContain("Indemnification");
  expect(text).not.toMatch(/log-?in|credential|password/i);
});

test.describe("links between policies", () => {
  test.use({ javaScriptEnabled: false });

  test("the terms link to the privacy policy", async ({ page }) => {
    await page.goto("/terms-conditions");
    await page.getByRole("article").getByRole("link", { name: "Privacy Policy" }).click();
    await expect(page).toHaveURL(`${baseURL}/privacy-policy`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Privacy Policy");
  });
});

test("the contents list jumps to a section on wide screens", async ({ page }) => {
  await page.goto("/privacy-policy");
  const contents = page.getByRole("navigation", { name: policyWords.contents });
  await expect(contents.getByRole("link")).toHaveCount(privacyPolicy.sections.length);
  await contents.getByRole("link", { name: "Children’s information" }).click();
  await expect(page).toHaveURL(/#children-s-information$/);
  await expect(page.getByRole("heading", { level: 2, name: "Children’s information" })).toBeInViewport();
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test("reads without sideways scrolling, the contents list set aside", async ({ page }) => {
    await page.goto("/cookie-policy");
    await expect(page.getByRole("navigation", { name: policyWords.contents })).toBeHidden();
    await expect(page.getByRole("heading", { level: 2, name: "Your consent" })).toBeVisible();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBe(0);
  });
});

test("the policy texts stay out of the browser's JavaScript", async ({ request }) => {
  const dir = join(process.cwd(), "public/build");
  const scripts = readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".js"))
    .map((file) => readFileSync(join(dir, file), "utf8"));
  expect(scripts.length).toBeGreaterThan(3);
  for (const { policy, sentence } of pages) {
    // The sentence is really on the page, so its absence from the scripts means something.
    expect(await (await request.get(policy.path)).text()).toContain(sentence);
    for (const script of scripts) expect(script).not.toContain(sentence);
  }
});
