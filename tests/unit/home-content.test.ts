import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { nextTabIndex } from "~/components/home/services-tabs";
import { deliveryCards, deliveryIntro } from "~/content/delivery";
import { hero } from "~/content/hero";
import { partners } from "~/content/partners";
import { services } from "~/content/services";
import { coreValues, valuesIntro } from "~/content/values";

describe("services tab keys", () => {
  it("moves down and right to the next tab, wrapping at the end", () => {
    expect(nextTabIndex("ArrowDown", 0, 5)).toBe(1);
    expect(nextTabIndex("ArrowRight", 3, 5)).toBe(4);
    expect(nextTabIndex("ArrowDown", 4, 5)).toBe(0);
  });

  it("moves up and left to the previous tab, wrapping at the start", () => {
    expect(nextTabIndex("ArrowUp", 2, 5)).toBe(1);
    expect(nextTabIndex("ArrowLeft", 0, 5)).toBe(4);
  });

  it("jumps to the ends with Home and End and ignores other keys", () => {
    expect(nextTabIndex("Home", 3, 5)).toBe(0);
    expect(nextTabIndex("End", 1, 5)).toBe(4);
    expect(nextTabIndex("Enter", 1, 5)).toBeNull();
    expect(nextTabIndex("a", 1, 5)).toBeNull();
  });
});

describe("home content", () => {
  it("has the spec's hero headline and rotating words, 'Business' first", () => {
    expect(hero.headline).toBe("Pioneering Purposeful Digital Products to Elevate Your");
    expect(hero.words).toEqual(["Business", "Startup", "Brand"]);
    expect(hero.primaryAction).toEqual({ label: "Start now", href: "#contact" });
    expect(hero.secondaryAction.href).toBe("#services");
  });

  it("lists the five services in order, each with image, alt text and a real description", () => {
    expect(services.map((service) => service.label)).toEqual([
      "Website Development",
      "Mobile App Development",
      "SaaS Development",
      "eCommerce Development",
      "Web Application Development",
    ]);
    for (const service of services) {
      // Remix serves it from /build; vitest may inline it as a data URI.
      expect(service.image).toMatch(/\.svg$|^data:image\/svg\+xml/);
      expect(service.imageAlt.length).toBeGreaterThan(20);
      expect(service.description.length).toBeGreaterThan(120);
    }
    expect(new Set(services.map((service) => service.id)).size).toBe(5);
  });

  it("has six 'How We Deliver Value' cards with distinct icons", () => {
    expect(deliveryIntro.heading).toBe("How We Deliver Value");
    expect(deliveryCards.map((card) => card.title)).toEqual([
      "Exclusive Development Squad",
      "Supervised Endeavors",
      "Technology Talent Acquisition",
      "Marketing for Scalability",
      "Product & Platforms",
      "Startup Venture Studio",
    ]);
    expect(new Set(deliveryCards.map((card) => card.icon)).size).toBe(6);
  });

  it("describes the core values in software terms, not insurance", () => {
    expect(valuesIntro.heading).toBe("Our Core Values");
    expect(coreValues.map((value) => value.title)).toEqual(["Simple", "Reliable", "Care"]);
    for (const value of coreValues) {
      expect(value.description).not.toMatch(/insur|polic(y|ies)holder|premium|claim/i);
    }
  });

  it("has five fictional partners with id, self-hosted logo url and name", () => {
    expect(partners).toHaveLength(5);
    for (const partner of partners) {
      expect(Object.keys(partner).sort()).toEqual(["id", "name", "url"]);
      expect(partner.url).not.toMatch(/^https?:/);
    }
  });
});

describe("home artwork", () => {
  const app = join(process.cwd(), "app");
  const directory = join(app, "images");
  /** The images app modules import (`~/images/…`), the 404 page's own art aside. */
  const imported = [
    ...new Set(
      readdirSync(app, { recursive: true, encoding: "utf8" })
        .filter((file) => /\.tsx?$/.test(file))
        .flatMap((file) =>
          [...readFileSync(join(app, file), "utf8").matchAll(/from "~\/images\/([^"]+)"/g)].map(
            (match) => match[1] ?? "",
          ),
        ),
    ),
  ]
    .filter((file) => file !== "not-found.svg")
    .sort();

  it("is the images the pages import, every one in the folder, and no other", () => {
    // The hero and the work banner: the services' and partners' images are content
    // (content/images/, each checked by the content build: scripts/lib/content/load.ts).
    expect(imported).toHaveLength(2);
    const present = readdirSync(directory).filter((file) => file !== "not-found.svg");
    expect(present.sort()).toEqual(imported);
  });

  // The server sends SVG compressed, so the budget is on gzip's size (brotli's is smaller). The
  // words in the artwork are outlines (no <text>: docs/performance.md, "Pages without a bundle"),
  // most of the bytes: the work banner alone is some 11 KB.
  it("is small SVG with no embedded rasters or external references", () => {
    let total = 0;
    const content = join(process.cwd(), "content", "images");
    const home = [
      ...imported.map((file) => join(directory, file)),
      ...readdirSync(content)
        .filter((file) => /^(?:service|partner)-/.test(file))
        .map((file) => join(content, file)),
    ];
    expect(home).toHaveLength(2 + services.length + partners.length);
    for (const file of home) {
      const source = readFileSync(file, "utf8");
      total += gzipSync(source, { level: 9 }).length;
      expect(source, file).not.toMatch(/data:image|<image\b|https?:\/\/(?!www\.w3\.org)/);
      expect(source, file).toMatch(/^<svg[^>]+viewBox=/);
    }
    expect(total).toBeLessThan(26_000);
  });
});
