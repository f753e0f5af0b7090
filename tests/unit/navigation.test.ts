import { describe, expect, it } from "vitest";
import { navHref, navItems } from "~/content/navigation";
import { formatAddress, site } from "~/content/site";

describe("navigation", () => {
  it("leads to the top, the services, the reviews, the insights and the form, in that order", () => {
    expect(navItems.map((item) => item.label)).toEqual([
      "home",
      "services",
      "reviews",
      "insights",
      "contact",
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
    const { street, locality, region, postalCode, country } = site.address;
    expect(formatAddress()).toBe(`${street}, ${locality}, ${region} ${postalCode}, ${country}`);
  });
});
