import { describe, expect, it } from "vitest";
import { MAX_BODY_BYTES, readFormBody } from "~/enquiry/body.server";
import { captureSource } from "~/enquiry/source.server";
import { MAX_LANDING_LENGTH, SOURCE_FIELDS } from "~/enquiry/source-fields";
import { HONEYPOT_FIELD } from "~/enquiry/trap-fields";
import { MAX_LENGTH } from "~/lead-parts/enquiry";
import { clickIdOf, describeSource, MAX_SOURCE_PARAMETERS, parseLeadSource } from "~/lead-parts/source";
import { type Lead, leadFileText, newLead, parseLead } from "~/leads/lead";
import { toTemplateParams } from "~/mail/template-params";

const SITE = "https://www.nirmaan.digital";

/** The action's view of a POST: the request (its URL and Referer) and the body's fields. */
function capture(options: { referer?: string; fields?: Record<string, string | string[]>; url?: string }) {
  const headers = options.referer === undefined ? undefined : { Referer: options.referer };
  const request = new Request(options.url ?? "http://127.0.0.1:3000/?index", { method: "POST", headers });
  const fields = new Map(
    Object.entries(options.fields ?? {}).map(([name, value]) => [
      name,
      Array.isArray(value) ? value : [value],
    ]),
  );
  return captureSource(request, fields, SITE);
}

describe("captureSource without JavaScript (the POST's Referer)", () => {
  it("keeps the landing path and the tracking parameters of this site's page", () => {
    expect(
      capture({ referer: `${SITE}/?utm_source=newsletter&utm_medium=email&utm_campaign=launch&page=2` }),
    ).toEqual({
      landing: "/",
      parameters: { utm_source: "newsletter", utm_medium: "email", utm_campaign: "launch" },
    });
  });

  it("accepts the origin the request was made to as well as SITE_URL", () => {
    expect(capture({ referer: "http://127.0.0.1:3000/?gclid=abc123" })).toEqual({
      landing: "/",
      parameters: { gclid: "abc123" },
    });
  });

  it("ignores a Referer of another site, or one that is no URL: the enquiry has no source", () => {
    expect(capture({ referer: "https://evil.example/?utm_source=forged" })).toBeUndefined();
    expect(capture({ referer: "not a url" })).toBeUndefined();
    expect(capture({})).toBeUndefined();
  });

  it("a direct visit is the landing alone", () => {
    expect(capture({ referer: `${SITE}/` })).toEqual({ landing: "/" });
  });
});

describe("captureSource with JavaScript (the fields the browser adds)", () => {
  it("prefers the first landing the browser kept over the Referer of the page the form is on", () => {
    expect(
      capture({
        referer: `${SITE}/`,
        fields: {
          [SOURCE_FIELDS.landing]: "/privacy-policy?utm_source=linkedin&utm_medium=social",
          [SOURCE_FIELDS.referrer]: "https://www.linkedin.com",
        },
      }),
    ).toEqual({
      landing: "/privacy-policy",
      referrer: "https://www.linkedin.com",
      parameters: { utm_source: "linkedin", utm_medium: "social" },
    });
  });

  it("drops a landing that is not a path of this site, and falls back to the Referer", () => {
    for (const landing of [
      "https://evil.example/?utm_source=x",
      "//evil.example/?utm_source=x",
      "/\\evil.example",
    ]) {
      expect(
        capture({ referer: `${SITE}/?utm_source=real`, fields: { [SOURCE_FIELDS.landing]: landing } }),
      ).toEqual({
        landing: "/",
        parameters: { utm_source: "real" },
      });
    }
  });

  it("keeps a referrer only as another site's bare origin", () => {
    for (const referrer of [
      "https://www.linkedin.com/feed/",
      "javascript:alert(1)",
      SITE,
      "http://127.0.0.1:3000",
      "https://www.linkedin.com\u202E",
      `https://${"a".repeat(200)}.example`,
    ]) {
      expect(
        capture({ fields: { [SOURCE_FIELDS.landing]: "/", [SOURCE_FIELDS.referrer]: referrer } }),
      ).toEqual({
        landing: "/",
      });
    }
  });

  it("drops over-long values and values with control, invisible or bidi characters, one by one", () => {
    const query = new URLSearchParams({
      utm_source: "google",
      utm_medium: "x".repeat(201),
      utm_campaign: "launch\u0007",
      utm_term: "term\u202E",
      utm_content: "a\u200Bb",
      gclid: "ok-123",
      unknown: "ignored",
    });
    expect(capture({ fields: { [SOURCE_FIELDS.landing]: `/?${query}` } })).toEqual({
      landing: "/",
      parameters: { utm_source: "google", gclid: "ok-123" },
    });
  });

  it("keeps the first of a repeated parameter and at most a bounded number of them", () => {
    const many = Array.from({ length: 40 }, (_, index) => `utm_x${index}=v`).join("&");
    const source = capture({ fields: { [SOURCE_FIELDS.landing]: `/?utm_source=a&utm_source=b&${many}` } });
    expect(source?.parameters?.utm_source).toBe("a");
    expect(Object.keys(source?.parameters ?? {})).toHaveLength(MAX_SOURCE_PARAMETERS);
  });

  it("ignores a source field sent twice", () => {
    expect(
      capture({
        referer: `${SITE}/?utm_source=real`,
        fields: { [SOURCE_FIELDS.landing]: ["/?utm_source=a", "/"] },
      }),
    ).toEqual({ landing: "/", parameters: { utm_source: "real" } });
  });
});

describe("a maximal enquiry with its source", () => {
  it("still fits the body limit, as the browser encodes it", async () => {
    const wide = (length: number) => "न".repeat(length);
    const body = new URLSearchParams({
      [HONEYPOT_FIELD]: "",
      name: wide(MAX_LENGTH.name),
      email: wide(MAX_LENGTH.email),
      countryCode: "999",
      phoneNumber: "9".repeat(MAX_LENGTH.phoneNumber),
      message: wide(MAX_LENGTH.message),
      webdriver: "1",
      // location.search is percent-encoded already: the worst landing is all escapes.
      [SOURCE_FIELDS.landing]: `/?${"%E0".repeat(MAX_LANDING_LENGTH / 3)}`.slice(0, MAX_LANDING_LENGTH),
      [SOURCE_FIELDS.referrer]: `https://${"a".repeat(63)}.${"b".repeat(63)}.${"c".repeat(63)}.example`,
    }).toString();
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(MAX_BODY_BYTES);
    const request = new Request("http://localhost/", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body,
    });
    expect((await readFormBody(request)).ok).toBe(true);
  });
});

describe("parseLeadSource", () => {
  it("reads back what capture writes", () => {
    const source = { landing: "/", referrer: "https://www.linkedin.com", parameters: { gclid: "abc" } };
    expect(parseLeadSource(source)).toEqual(source);
  });

  it.each([
    ["not an object", "google"],
    ["an array", []],
    ["an unknown key", { landing: "/", cookie: "x" }],
    ["a landing that is a URL", { landing: "https://evil.example/" }],
    ["a referrer with a path", { referrer: "https://www.linkedin.com/feed/" }],
    ["a parameter the site does not list", { parameters: { page: "2" } }],
    ["a nested object", { parameters: { utm_source: { deep: "x" } } }],
    ["an over-long value", { parameters: { utm_source: "x".repeat(201) } }],
    ["a bidi override", { parameters: { utm_source: "a\u202Eb" } }],
    ["an empty record", {}],
  ])("refuses %s", (_kind, value) => {
    expect(parseLeadSource(value)).toBeNull();
  });

  it("drops a bad source from a stored lead, never the lead", () => {
    const lead = newLead({
      id: "7c9e6679-7425-40de-944b-e07fc1f90ae7",
      enquiry: {
        name: "Asha",
        email: "a@example.in",
        countryCode: "91",
        phoneNumber: "9876543210",
        message: "",
      },
      destinations: ["emailjs"],
      at: new Date("2026-11-24T10:00:00Z"),
    });
    const read = parseLead(
      leadFileText({ ...lead, source: { parameters: { utm_source: "\u001B[2J" } } } as Lead),
    );
    expect(read).toEqual(lead);
    expect(read).not.toHaveProperty("source");
    const good = { landing: "/", parameters: { utm_source: "newsletter" } };
    expect(parseLead(leadFileText({ ...lead, source: good } as Lead))?.source).toEqual(good);
  });
});

describe("the mail's source and click_id", () => {
  it.each([
    [
      {
        landing: "/",
        parameters: { utm_source: "google", utm_medium: "cpc", utm_campaign: "spring-launch" },
      },
      "google / cpc / spring-launch",
      "",
    ],
    [{ landing: "/", parameters: { utm_source: "newsletter" } }, "newsletter / (not set)", ""],
    [{ landing: "/", parameters: { gclid: "Cj0KCQ" } }, "google / cpc", "gclid=Cj0KCQ"],
    [{ landing: "/", parameters: { msclkid: "m1" } }, "bing / cpc", "msclkid=m1"],
    [
      { landing: "/", parameters: { utm_source: "facebook", utm_medium: "paid", fbclid: "f1" } },
      "facebook / paid",
      "fbclid=f1",
    ],
    [{ landing: "/", referrer: "https://www.linkedin.com" }, "linkedin.com (referral)", ""],
    [{ landing: "/" }, "direct", ""],
    [undefined, "unknown", ""],
  ])("%j reads %s", (source, line, clickId) => {
    expect(describeSource(source)).toBe(line);
    expect(clickIdOf(source)).toBe(clickId);
  });

  it("are EmailJS template parameters", () => {
    const enquiry = {
      name: "Asha",
      email: "a@example.in",
      countryCode: "91",
      phoneNumber: "98",
      message: "",
    };
    expect(toTemplateParams(enquiry, "Team", { landing: "/", parameters: { gclid: "g1" } })).toEqual({
      to_name: "Team",
      ...enquiry,
      from_name: "Asha",
      source: "google / cpc",
      click_id: "gclid=g1",
      privacy_notice_version: "",
      privacy_notice_language: "",
      notice_version: "",
      reference: "",
    });
    expect(toTemplateParams(enquiry, "Team", undefined, undefined, "NRM-7KQ2-M9XD")).toMatchObject({
      reference: "NRM-7KQ2-M9XD",
    });
  });
});
