import {
  type EnquiryValues,
  enquiryBody,
  enquiryForm,
  fillEnquiry,
  NOTICE,
  validEnquiry,
  waitForHydration,
} from "../support/enquiry-page";
import { type FakeEmailJs, startFakeEmailJs } from "../support/fake-emailjs";
import { test as base, expect } from "../support/fixtures";
import { type RunningServer, startServer } from "../support/server";

// One fake EmailJS on 127.0.0.2:443 at a time: these tests run in order in one worker.
base.describe.configure({ mode: "default" });

const KEYS = {
  EMAILJS_SERVICE_ID: "service_nirmaan",
  EMAILJS_TEMPLATE_ID: "template_enquiry",
  EMAILJS_PUBLIC_KEY: "public-key-4f2a",
  EMAILJS_PRIVATE_KEY: "private-key-9c1e-secret",
};

const test = base.extend<{ fake: FakeEmailJs }, { fakeEmailJs: FakeEmailJs; app: RunningServer }>({
  fakeEmailJs: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern; empty means none
    async ({}, use) => {
      const fake = await startFakeEmailJs();
      await use(fake);
      await fake.close();
    },
    { scope: "worker" },
  ],
  app: [
    async ({ fakeEmailJs }, use) => {
      const server = await startServer({
        env: {
          ...KEYS,
          EMAILJS_ORIGIN: fakeEmailJs.host,
          NODE_EXTRA_CA_CERTS: fakeEmailJs.certificatePath,
          ENQUIRY_RATE_LIMIT: "0",
        },
      });
      await use(server);
      await server.stop();
    },
    { scope: "worker" },
  ],
  fake: async ({ fakeEmailJs }, use) => {
    fakeEmailJs.reset();
    await use(fakeEmailJs);
  },
  baseURL: async ({ app }, use) => use(app.url),
});

const EMPTY: EnquiryValues = { name: "", email: "", countryCode: "", phoneNumber: "", message: "" };

async function expectValues(page: Parameters<typeof enquiryForm>[0], values: EnquiryValues) {
  const form = enquiryForm(page);
  await expect(form.name).toHaveValue(values.name);
  await expect(form.email).toHaveValue(values.email);
  await expect(form.countryCode).toHaveValue(values.countryCode);
  await expect(form.phoneNumber).toHaveValue(values.phoneNumber);
  await expect(form.message).toHaveValue(values.message);
}

function expectProviderRequest(fake: FakeEmailJs, values: EnquiryValues) {
  expect(fake.requests).toHaveLength(1);
  const [request] = fake.requests;
  expect(request?.method).toBe("POST");
  expect(request?.path).toBe("/api/v1.0/email/send");
  expect(request?.contentType).toBe("application/json");
  const body = request?.body as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(
    ["accessToken", "lib_version", "service_id", "template_id", "template_params", "user_id"].sort(),
  );
  expect(body.service_id).toBe(KEYS.EMAILJS_SERVICE_ID);
  expect(body.template_id).toBe(KEYS.EMAILJS_TEMPLATE_ID);
  expect(body.user_id).toBe(KEYS.EMAILJS_PUBLIC_KEY);
  expect(body.accessToken).toBe(KEYS.EMAILJS_PRIVATE_KEY);
  expect(body.lib_version).toMatch(/^\d+\.\d+\.\d+$/);
  expect(body.template_params).toStrictEqual({
    to_name: "Nirmaan Digital team",
    name: values.name,
    email: values.email,
    countryCode: values.countryCode,
    phoneNumber: values.phoneNumber,
    message: values.message,
    from_name: values.name,
  });
}

test.describe("with JavaScript", () => {
  test("a valid enquiry reaches EmailJS with exactly the template params, and the form clears", async ({
    page,
    fake,
    app,
  }) => {
    await page.goto("/");
    await waitForHydration(page);
    const values = validEnquiry();
    await fillEnquiry(page, values);
    const form = enquiryForm(page);
    const post = page.waitForRequest((request) => request.method() === "POST");
    await form.submit.click();
    expect((await post).url()).toContain(".data");
    await expect(form.notice).toHaveText(NOTICE.sent);
    await expectValues(page, EMPTY);
    expectProviderRequest(fake, values);
    // The log tells what happened without what the visitor typed, and never the private key.
    await expect.poll(() => app.output()).toContain('"outcome":"sent","transport":"emailjs"');
    for (const secret of [KEYS.EMAILJS_PRIVATE_KEY, values.name, values.phoneNumber, values.email]) {
      expect(app.output()).not.toContain(secret);
    }
  });

  test.describe("when EmailJS fails", () => {
    for (const [label, status, text] of [
      ["a 4xx", 400, "The template ID is invalid"],
      ["a 5xx", 503, "Service Unavailable"],
    ] as const) {
      test(`${label} answer shows the failure notice and keeps every field`, async ({ page, fake, app }) => {
        fake.respondWith({ kind: "status", status, text });
        await page.goto("/");
        await waitForHydration(page);
        const values = validEnquiry();
        await fillEnquiry(page, values);
        const form = enquiryForm(page);
        await form.submit.click();
        await expect(form.notice).toHaveText(NOTICE.failed);
        await expectValues(page, values);
        await expect(form.submit).toBeEnabled();
        expect(fake.requests).toHaveLength(1);
        await expect.poll(() => app.output()).toContain(`EmailJS answered ${status}: ${text}`);

        // The visitor tries again once EmailJS is back: the same form sends now.
        fake.reset();
        await form.submit.click();
        await expect(form.notice).toHaveText(NOTICE.sent);
        expectProviderRequest(fake, values);
      });
    }

    test("a provider that never answers fails after 10 s, with the fields kept", async ({ page, fake }) => {
      test.setTimeout(45_000);
      fake.respondWith({ kind: "hang" });
      await page.goto("/");
      await waitForHydration(page);
      const values = validEnquiry();
      await fillEnquiry(page, values);
      const form = enquiryForm(page);
      const started = Date.now();
      await form.submit.click();
      await expect(form.submit).toBeDisabled();
      await expect(form.notice).toHaveText(NOTICE.failed, { timeout: 20_000 });
      expect(Date.now() - started).toBeGreaterThanOrEqual(9_500);
      expect(Date.now() - started).toBeLessThan(15_000);
      await expectValues(page, values);
    });
  });

  test("a double click sends once", async ({ page, fake }) => {
    await page.goto("/");
    await waitForHydration(page);
    await fillEnquiry(page, validEnquiry());
    const form = enquiryForm(page);
    await form.submit.dblclick();
    await expect(form.notice).toHaveText(NOTICE.sent);
    expect(fake.requests).toHaveLength(1);
  });

  test("a filled honeypot gets a success notice and nothing is sent", async ({ page, fake, app }) => {
    await page.goto("/");
    await waitForHydration(page);
    await fillEnquiry(page, validEnquiry());
    await page.locator('input[name="company_website"]').evaluate((input: HTMLInputElement) => {
      input.value = "https://spam.example";
    });
    const form = enquiryForm(page);
    await form.submit.click();
    await expect(form.notice).toHaveText(NOTICE.sent);
    expect(fake.requests).toHaveLength(0);
    await expect.poll(() => app.output()).toContain('"outcome":"honeypot"');
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a valid enquiry reaches EmailJS and the page comes back clear with the notice", async ({
    page,
    fake,
  }) => {
    await page.goto("/");
    const values = validEnquiry();
    await fillEnquiry(page, values);
    const form = enquiryForm(page);
    await form.submit.click();
    await expect(page).toHaveURL(/\/#contact$/);
    await expect(form.notice).toHaveText(NOTICE.sent);
    await expectValues(page, EMPTY);
    expectProviderRequest(fake, values);
  });

  test.describe("when EmailJS fails", () => {
    test("the answer is 200 with the failure notice and every field kept (never a 5xx)", async ({
      page,
      fake,
    }) => {
      fake.respondWith({ kind: "status", status: 500, text: "Internal Server Error" });
      await page.goto("/");
      const values = validEnquiry();
      await fillEnquiry(page, values);
      const form = enquiryForm(page);
      const response = page.waitForResponse((candidate) => candidate.request().method() === "POST");
      await form.submit.click();
      expect((await response).status()).toBe(200);
      await expect(page).toHaveURL(/#contact$/);
      await expect(form.notice).toHaveText(NOTICE.failed);
      await expectValues(page, values);
    });
  });

  test("a double click sends once", async ({ page, fake }) => {
    await page.goto("/");
    await fillEnquiry(page, validEnquiry());
    const form = enquiryForm(page);
    await form.submit.dblclick();
    await expect(form.notice).toHaveText(NOTICE.sent);
    expect(fake.requests).toHaveLength(1);
  });
});

test.describe("idempotency", () => {
  test("the same form posted twice at once is sent once; both get the success answer", async ({
    request,
    fake,
  }) => {
    const body = enquiryBody(validEnquiry());
    const [first, second] = await Promise.all(
      [0, 1].map(() => request.post("/?index", { form: body, maxRedirects: 0 })),
    );
    expect([first?.status(), second?.status()]).toEqual([303, 303]);
    expect(first?.headers().location).toBe("/#contact");
    expect(second?.headers()["set-cookie"]).toContain("enquiry_notice=");
    expect(fake.requests).toHaveLength(1);

    const again = await request.post("/?index", { form: body, maxRedirects: 0 });
    expect(again.status()).toBe(303);
    expect(fake.requests).toHaveLength(1);
  });

  test("a different enquiry from the same visitor is sent as well", async ({ request, fake }) => {
    const body = enquiryBody(validEnquiry());
    await request.post("/?index", { form: body, maxRedirects: 0 });
    await request.post("/?index", { form: { ...body, message: "Another question" }, maxRedirects: 0 });
    expect(fake.requests).toHaveLength(2);
  });
});
