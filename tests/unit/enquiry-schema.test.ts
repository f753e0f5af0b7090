import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { enquirySchema } from "~/enquiry/schema.server";

const valid = {
  name: "Asha Rao",
  email: "asha@example.in",
  countryCode: "91",
  phoneNumber: "9876543210",
  message: "We need a booking app for our clinics.",
};

/** Parses like the action does: through Conform, which turns empty strings into undefined. */
function parse(overrides: Partial<Record<keyof typeof valid, string>> = {}, omit: string[] = []) {
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries({ ...valid, ...overrides })) {
    if (!omit.includes(name)) form.set(name, value);
  }
  return parseWithZod(form, { schema: enquirySchema });
}

function invalidFields(overrides: Partial<Record<keyof typeof valid, string>>, omit: string[] = []) {
  const submission = parse(overrides, omit);
  return submission.status === "success" ? [] : Object.keys(submission.error ?? {});
}

describe("enquiry schema", () => {
  it("accepts a complete enquiry and trims the name", () => {
    const submission = parse({ name: "  Asha Rao  " });
    expect(submission.status).toBe("success");
    if (submission.status === "success") expect(submission.value.name).toBe("Asha Rao");
  });

  it("requires a name that is not blank or whitespace only, up to 40 characters", () => {
    expect(invalidFields({}, ["name"])).toEqual(["name"]);
    expect(invalidFields({ name: "" })).toEqual(["name"]);
    expect(invalidFields({ name: "   \t " })).toEqual(["name"]);
    expect(invalidFields({ name: "a".repeat(40) })).toEqual([]);
    expect(invalidFields({ name: "a".repeat(41) })).toEqual(["name"]);
  });

  it("requires an e-mail with local part, @, domain, dot and a top-level part of 2+ letters, up to 40", () => {
    expect(invalidFields({ email: "a@b.co" })).toEqual([]);
    expect(invalidFields({ email: "first.last@mail.example.org" })).toEqual([]);
    expect(invalidFields({ email: "a@b.c" })).toEqual(["email"]);
    expect(invalidFields({ email: "a@b" })).toEqual(["email"]);
    expect(invalidFields({ email: "@b.co" })).toEqual(["email"]);
    expect(invalidFields({ email: "ab.co" })).toEqual(["email"]);
    expect(invalidFields({ email: "a b@c.co" })).toEqual(["email"]);
    expect(invalidFields({ email: "a@b.c0" })).toEqual(["email"]);
    expect(invalidFields({}, ["email"])).toEqual(["email"]);
    const local40 = `${"a".repeat(34)}@b.com`; // 40 characters
    expect(local40).toHaveLength(40);
    expect(invalidFields({ email: local40 })).toEqual([]);
    expect(invalidFields({ email: `a${local40}` })).toEqual(["email"]);
  });

  it("requires a country code of 1 to 3 digits", () => {
    expect(invalidFields({ countryCode: "1" })).toEqual([]);
    expect(invalidFields({ countryCode: "971" })).toEqual([]);
    expect(invalidFields({ countryCode: "1234" })).toEqual(["countryCode"]);
    expect(invalidFields({ countryCode: "abc" })).toEqual(["countryCode"]);
    expect(invalidFields({ countryCode: "+91" })).toEqual(["countryCode"]);
    expect(invalidFields({ countryCode: "" })).toEqual(["countryCode"]);
  });

  it("requires a phone number of 1 to 12 digits", () => {
    expect(invalidFields({ phoneNumber: "1".repeat(12) })).toEqual([]);
    expect(invalidFields({ phoneNumber: "1".repeat(13) })).toEqual(["phoneNumber"]);
    expect(invalidFields({ phoneNumber: "98765 43210" })).toEqual(["phoneNumber"]);
    expect(invalidFields({ phoneNumber: "98-76" })).toEqual(["phoneNumber"]);
    expect(invalidFields({}, ["phoneNumber"])).toEqual(["phoneNumber"]);
  });

  it("takes an optional message of up to 1500 characters", () => {
    expect(invalidFields({ message: "" })).toEqual([]);
    expect(invalidFields({}, ["message"])).toEqual([]);
    expect(invalidFields({ message: "m".repeat(1500) })).toEqual([]);
    expect(invalidFields({ message: "m".repeat(1501) })).toEqual(["message"]);
    const submission = parse({ message: "" });
    if (submission.status === "success") expect(submission.value.message).toBe("");
  });

  it("flags every invalid field at once", () => {
    expect(
      invalidFields({ name: " ", email: "x", countryCode: "abc", phoneNumber: "1".repeat(13) }).sort(),
    ).toEqual(["countryCode", "email", "name", "phoneNumber"]);
  });
});
