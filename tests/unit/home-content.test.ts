import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { nextTabIndex } from "~/components/home/services-tabs";
import { deliveryCards } from "~/content/delivery";
import { partners } from "~/content/partners";
import { services } from "~/content/services";
import { coreValues } from "~/content/values";
import { FIXTURE_CONTENT_DIR, fixture, fixtureEntries } from "../support/fixture-content";

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

// On the tests' own content (tests/fixtures/content); the specification's words are held to the
// content that ships by tests/content/specification.test.ts.
describe("home content", () => {
  it("lists the services in their files' order, each with its image, alt text and description", () => {
    const files = fixtureEntries("services").sort((a, b) => a.data.order - b.data.order);
    expect(services.map((service) => service.label)).toEqual(files.map((file) => file.data.label));
    expect(services.map((service) => service.id)).toEqual(files.map((file) => file.slug));
    for (const service of services) {
      // Remix serves it from /build; vitest may inline it as a data URI.
      expect(service.image).toMatch(/\.svg$|^data:image\/svg\+xml/);
      expect(service.imageAlt).not.toBe("");
      expect(service.description).not.toBe("");
    }
  });

  it("keeps the cards and the values in their file's order", () => {
    expect(deliveryCards.map((card) => card.title)).toEqual(
      fixture("delivery").cards.map((card) => card.title),
    );
    expect(coreValues.map((value) => value.title)).toEqual(
      fixture("values").values.map((value) => value.title),
    );
  });

  it("gives each partner an id, a self-hosted logo url and a name (the original specification's fields)", () => {
    expect(partners.map((partner) => partner.name)).toEqual(fixture("partners").partners.map((p) => p.name));
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
    // The hero's: the work banner shows its case study's cover, and the services' and partners'
    // images are content too (each checked by the content build: scripts/lib/content/load.ts).
    expect(imported).toHaveLength(1);
    const present = readdirSync(directory).filter((file) => file !== "not-found.svg");
    expect(present.sort()).toEqual(imported);
  });

  // The server sends SVG compressed, so the budget is on gzip's size (brotli's is smaller). The
  // words in the artwork are outlines (no <text>: docs/performance.md, "Pages without a bundle"),
  // most of the bytes.
  it("is small SVG with no embedded rasters or external references", () => {
    let total = 0;
    const content = join(process.cwd(), FIXTURE_CONTENT_DIR, "images");
    const home = [
      ...imported.map((file) => join(directory, file)),
      ...readdirSync(content)
        .filter((file) => /^(?:service|partner)-/.test(file))
        .map((file) => join(content, file)),
    ];
    expect(home).toHaveLength(1 + services.length + partners.length);
    for (const file of home) {
      const source = readFileSync(file, "utf8");
      total += gzipSync(source, { level: 9 }).length;
      expect(source, file).not.toMatch(/data:image|<image\b|https?:\/\/(?!www\.w3\.org)/);
      expect(source, file).toMatch(/^<svg[^>]+viewBox=/);
    }
    expect(total).toBeLessThan(26_000);
  });
});
