import { describe, expect, it } from "vitest";
import { keepDataWhenTokenLeaves } from "~/enquiry/notice-token-url";

type Args = Parameters<typeof keepDataWhenTokenLeaves>[0];

const revalidate = (current: string, next: string, extra: Partial<Args> = {}) =>
  keepDataWhenTokenLeaves({
    currentUrl: new URL(current, "http://localhost"),
    currentParams: {},
    nextUrl: new URL(next, "http://localhost"),
    nextParams: {},
    defaultShouldRevalidate: true,
    ...extra,
  } as Args);

describe("keepDataWhenTokenLeaves", () => {
  it("keeps the loaded data (and the notice in it) when only the token leaves the URL", () => {
    expect(revalidate("/?enquiry=abc#contact", "/#contact")).toBe(false);
    expect(revalidate("/?utm_source=x&enquiry=abc", "/?utm_source=x")).toBe(false);
  });

  it.each([
    ["another page", "/?enquiry=abc", "/privacy-policy"],
    ["another query", "/?enquiry=abc", "/?page=2"],
    ["a new token", "/?enquiry=abc", "/?enquiry=def"],
    ["a URL without a token", "/", "/"],
  ])("leaves %s to Remix's default", (_label, current, next) => {
    expect(revalidate(current, next)).toBe(true);
  });

  it("revalidates after a form submission", () => {
    expect(revalidate("/?enquiry=abc", "/", { formMethod: "POST" })).toBe(true);
  });
});
