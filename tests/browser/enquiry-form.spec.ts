import { join } from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { NOTICE_TIMEOUT_MS } from "../../app/enquiry/notices";
import {
  type EnquiryValues,
  enquiryForm,
  expectFormValues,
  fillEnquiry,
  NOTICE,
  validEnquiry,
  waitForHydration,
} from "../support/enquiry-page";
import { expect, test } from "../support/fixtures";
import { readLeads } from "../support/lead-fixtures";
import { isHydratedAndRendered, runClockUntil, stopPageClock } from "../support/page-clock";

// These tests use the default server: no EmailJS (leads stay in the store's inbox), no rate limit.

function storedLeads(baseURL: string | undefined) {
  const port = new URL(baseURL ?? "").port;
  return readLeads(join(process.cwd(), "test-results", `store-${port}`));
}

const invalid: EnquiryValues = {
  name: "   ",
  email: "a@b.c",
  countryCode: "abc",
  phoneNumber: "12-34",
  message: "Still here after the round trip",
};

async function expectFlagged(page: Parameters<typeof enquiryForm>[0]) {
  const form = enquiryForm(page);
  for (const field of [form.name, form.email, form.countryCode, form.phoneNumber]) {
    await expect(field).toHaveAttribute("aria-invalid", "true");
    const describedBy = await field.getAttribute("aria-describedby");
    expect(describedBy).toBeTruthy();
    await expect(page.locator(`[id="${describedBy}"]`)).toHaveText(/\S/);
  }
  await expect(form.message).not.toHaveAttribute("aria-invalid", "true");
  await expect(form.notice).toHaveText(NOTICE.invalid);
}

test("the form has labelled fields with the right limits and no accessibility violations", async ({
  page,
}) => {
  await page.goto("/#contact");
  const form = enquiryForm(page);
  await expect(form.form).toHaveAttribute("method", "post");
  await expect(form.form).toHaveAttribute("action", /^\/\?index/);
  for (const [field, name, maxLength] of [
    [form.name, "name", "40"],
    [form.email, "email", "40"],
    [form.countryCode, "countryCode", "3"],
    [form.phoneNumber, "phoneNumber", "12"],
    [form.message, "message", "1500"],
  ] as const) {
    await expect(field).toHaveAttribute("name", name);
    await expect(field).toHaveAttribute("maxlength", maxLength);
    await expect(field).toBeEmpty();
  }
  await expect(form.countryCode).toHaveAttribute("inputmode", "numeric");
  await expect(form.countryCode.locator("xpath=..")).toContainText("+");
  await expect(form.message).toHaveAttribute("rows", "4");
  await expect(form.submit).toHaveText("Submit");
  await expect(form.notice).toBeEmpty();
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
  const results = await new AxeBuilder({ page }).include("#contact").analyze();
  expect(results.violations).toEqual([]);
});

test.describe("with JavaScript", () => {
  test.use({ allowedProblems: [/^HTTP 400 /] });

  test("an invalid enquiry flags every invalid field, shows the notice and keeps what was typed", async ({
    page,
    baseURL,
  }) => {
    await page.goto("/");
    await waitForHydration(page);
    await fillEnquiry(page, invalid);
    await enquiryForm(page).submit.click();
    await expectFlagged(page);
    await expectFormValues(page, invalid);
    await expect(enquiryForm(page).name, "focus moves to the first invalid field").toBeFocused();
    const results = await new AxeBuilder({ page }).include("#contact").analyze();
    expect(results.violations).toEqual([]);
    // Nothing of it was kept (the server is shared: another test's valid enquiry may land meanwhile).
    expect(storedLeads(baseURL).filter((lead) => lead.enquiry.message === invalid.message)).toEqual([]);
  });

  test("an empty enquiry flags the required fields", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    await enquiryForm(page).submit.click();
    await expectFlagged(page);
  });

  test("a valid enquiry is sent, the form clears and the toast hides after 6 s", async ({
    page,
    baseURL,
  }) => {
    // The page's clock is stopped, and every timer of the toast's length is counted: the
    // toast's timer starts at the clock's time whenever the page gets to it.
    await stopPageClock(page);
    await page.addInitScript((toastMs) => {
      const set = window.setTimeout;
      let toastTimers = 0;
      window.setTimeout = ((handler: TimerHandler, timeout?: number, ...rest: unknown[]) => {
        if (timeout === toastMs) Object.assign(window, { __toastTimers: ++toastTimers });
        return set(handler, timeout, ...rest);
      }) as typeof window.setTimeout;
    }, NOTICE_TIMEOUT_MS);
    await page.goto("/");
    await runClockUntil(page, () => isHydratedAndRendered(page), {
      stepMs: 16,
      message: "the page never hydrated and rendered whole",
    });
    const values = validEnquiry();
    await fillEnquiry(page, values);
    const form = enquiryForm(page);
    await form.submit.click();
    await expect(form.notice).toHaveText(NOTICE.sent);
    await expect
      .poll(() => page.evaluate(() => (window as { __toastTimers?: number }).__toastTimers ?? 0))
      .toBe(1);
    await expectFormValues(page, { name: "", email: "", countryCode: "", phoneNumber: "", message: "" });
    const lead = storedLeads(baseURL).find((entry) => entry.enquiry.name === values.name);
    expect(lead).toMatchObject({ state: "inbox", attempts: 0, enquiry: values });
    expect(Date.parse(lead?.receivedAt ?? "")).not.toBeNaN();
    // A toast: it floats over the page.
    expect(await form.notice.locator("xpath=..").evaluate((node) => getComputedStyle(node).position)).toBe(
      "fixed",
    );
    await page.clock.runFor(NOTICE_TIMEOUT_MS - 1);
    await expect(form.notice, "the toast a millisecond before its time").toHaveText(NOTICE.sent);
    await page.clock.runFor(1);
    await expect(form.notice, "the toast at its time").toBeEmpty();
  });

  test("the toast closes on its close button, and an error after it is announced too", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    await fillEnquiry(page, validEnquiry());
    const form = enquiryForm(page);
    await form.submit.click();
    await expect(form.notice).toHaveText(NOTICE.sent);
    await form.closeNotice.click();
    await expect(form.notice).toBeEmpty();
    await form.submit.click();
    await expect(form.notice).toHaveText(NOTICE.invalid);
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false, allowedProblems: [/^HTTP 400 /] });

  test("an invalid enquiry answers 400 with every invalid field flagged and every value kept", async ({
    page,
  }) => {
    await page.goto("/");
    await fillEnquiry(page, invalid);
    const responsePromise = page.waitForResponse((response) => response.request().method() === "POST");
    await enquiryForm(page).submit.click();
    expect((await responsePromise).status()).toBe(400);
    await expect(page).toHaveURL(/#contact$/);
    await expectFlagged(page);
    await expectFormValues(page, invalid);
  });

  test("a valid enquiry is sent by POST/redirect/GET: notice once, empty fields", async ({
    page,
    baseURL,
  }) => {
    await page.goto("/");
    const values = validEnquiry({ message: "" });
    await fillEnquiry(page, values);
    const form = enquiryForm(page);
    const responsePromise = page.waitForResponse((response) => response.request().method() === "POST");
    await form.submit.click();
    expect((await responsePromise).status()).toBe(303);
    await expect(page).toHaveURL(/\/\?enquiry=[\w.-]+#contact$/);
    await expect(form.notice).toHaveText(NOTICE.sent);
    await expect(form.closeNotice).toBeHidden();
    await expectFormValues(page, { name: "", email: "", countryCode: "", phoneNumber: "", message: "" });
    expect(storedLeads(baseURL).find((entry) => entry.enquiry.name === values.name)?.enquiry).toMatchObject({
      message: "",
    });
    await page.reload();
    await expect(form.notice).toBeEmpty();
  });
});
