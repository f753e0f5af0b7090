import { randomUUID } from "node:crypto";
import { expect, type Page } from "@playwright/test";
import type { Enquiry } from "../../app/lead-parts/enquiry";
import { fixture } from "./fixture-content";

/** The form's words, from the content the tests' build is made of (tests/fixtures/content). */
const words = fixture("enquiry-form");

/** The three notices' words. */
export const NOTICE = words.notices;

/** What a visitor types into the form's fields (~/lead-parts/enquiry names them). */
export type EnquiryValues = Enquiry;

export function validEnquiry(overrides: Partial<EnquiryValues> = {}): EnquiryValues {
  return {
    name: `Asha ${randomUUID().slice(0, 8)}`,
    email: "asha@example.in",
    countryCode: "91",
    phoneNumber: "9876543210",
    message: "We need a booking app for our three clinics.\nCan we talk next week?",
    ...overrides,
  };
}

/** The form's fields, found the way a visitor finds them: by their labels. */
export function enquiryForm(page: Page) {
  const form = page.getByRole("form", { name: "Enquiry" });
  return {
    form,
    name: form.getByLabel(words.labels.name),
    email: form.getByLabel(words.labels.email),
    countryCode: form.getByLabel(words.labels.countryCode),
    phoneNumber: form.getByLabel(words.labels.phoneNumber),
    message: form.getByLabel(words.labels.message),
    submit: form.getByRole("button", { name: words.submit }),
    notice: page.locator("#contact").getByRole("status"),
    closeNotice: page.locator("#contact").getByRole("button", { name: "Close notice" }),
  };
}

export async function fillEnquiry(page: Page, values: EnquiryValues): Promise<void> {
  const form = enquiryForm(page);
  await form.name.fill(values.name);
  await form.email.fill(values.email);
  await form.countryCode.fill(values.countryCode);
  await form.phoneNumber.fill(values.phoneNumber);
  await form.message.fill(values.message);
}

/** The form shows exactly `values` (what the visitor typed, kept; or empty after a success). */
export async function expectFormValues(page: Page, values: EnquiryValues): Promise<void> {
  const form = enquiryForm(page);
  await expect(form.name).toHaveValue(values.name);
  await expect(form.email).toHaveValue(values.email);
  await expect(form.countryCode).toHaveValue(values.countryCode);
  await expect(form.phoneNumber).toHaveValue(values.phoneNumber);
  await expect(form.message).toHaveValue(values.message);
}

/** A complete urlencoded enquiry body, as the browser posts it. */
export function enquiryBody(
  values: EnquiryValues,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    company_website: "",
    ...values,
    ...extra,
  };
}

function routerInitialized(): boolean {
  const router = (window as unknown as { __remixRouter?: { state: { initialized: boolean } } }).__remixRouter;
  return router?.state.initialized === true;
}

/** Waits until Remix has hydrated, so a submit goes through the enhanced path. */
export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForFunction(routerInitialized);
}
