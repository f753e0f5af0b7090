import { describe, expect, it } from "vitest";
import { navHref, navItems } from "~/content/navigation";
import { formatAddress, site } from "~/content/site";

describe("navigation", () => {
  it("lists Home, Services, Reviews, Insights and LET'S TALK in that order", () => {
    expect(navItems.map((item) => item.label)).toEqual([
      "Home",
      "Services",
      "Reviews",
      "Insights",
      "LET'S TALK",
    ]);
    expect(navItems.map((item) => item.anchor)).toEqual([
      "top",
      "services",
      "testimonial",
      "insights",
      "contact",
    ]);
  });

  it("uses in-page anchors on the home page", () => {
    expect(navHref("top", true)).toBe("#top");
    expect(navHref("testimonial", true)).toBe("#testimonial");
  });

  it("leads to the home page's anchors from other pages", () => {
    expect(navHref("top", false)).toBe("/");
    expect(navHref("contact", false)).toBe("/#contact");
  });
});

describe("site details", () => {
  it("formats the postal address on one line", () => {
    expect(formatAddress()).toBe(
      `${site.address.street}, Bengaluru, Karnataka ${site.address.postalCode}, India`,
    );
  });

  it("keeps the phone number dialable", () => {
    expect(site.phone.e164).toMatch(/^\+91\d{10}$/);
    expect(site.phone.display.replace(/\s/g, "")).toBe(site.phone.e164);
  });
});
