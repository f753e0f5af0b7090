import type { MetaDescriptor } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { site } from "~/content/site";
import { buildMeta } from "~/utils/meta";

const page = {
  title: "Privacy Policy — Nirmaan Digital",
  description: "How we collect and use information.",
  path: "/privacy-policy",
  siteUrl: "https://www.nirmaan.digital",
  image: "/og/policies/privacy-policy.png",
};

const contentOf = (entry: MetaDescriptor) => ("content" in entry ? entry.content : undefined);
const byProperty = (meta: MetaDescriptor[], property: string) =>
  meta.filter((entry) => "property" in entry && entry.property === property).map(contentOf);
const byName = (meta: MetaDescriptor[], name: string) =>
  meta.filter((entry) => "name" in entry && entry.name === name).map(contentOf);

describe("buildMeta", () => {
  const meta = buildMeta(page);

  it("sets exactly one title and description", () => {
    expect(meta.filter((entry) => "title" in entry)).toEqual([{ title: page.title }]);
    expect(byName(meta, "description")).toEqual([page.description]);
  });

  it("links the canonical URL from SITE_URL and the page path", () => {
    expect(meta.filter((entry) => "tagName" in entry)).toEqual([
      { tagName: "link", rel: "canonical", href: "https://www.nirmaan.digital/privacy-policy" },
    ]);
  });

  it("writes Open Graph tags as `property`, never as `name`", () => {
    expect(byProperty(meta, "og:title")).toEqual([page.title]);
    expect(byProperty(meta, "og:description")).toEqual([page.description]);
    expect(byProperty(meta, "og:url")).toEqual(["https://www.nirmaan.digital/privacy-policy"]);
    expect(byProperty(meta, "og:type")).toEqual(["website"]);
    expect(byProperty(meta, "og:site_name")).toEqual([site.name]);
    expect(byProperty(meta, "og:image")).toEqual([
      "https://www.nirmaan.digital/og/policies/privacy-policy.png",
    ]);
    expect(byProperty(meta, "og:image:width")).toEqual(["1200"]);
    expect(byProperty(meta, "og:image:height")).toEqual(["630"]);
    expect(byProperty(meta, "og:image:alt")[0]).toContain(site.name);
    const ogNamed = meta.filter((entry) => "name" in entry && String(entry.name).startsWith("og:"));
    expect(ogNamed).toEqual([]);
  });

  it("writes a large-image Twitter card", () => {
    expect(byName(meta, "twitter:card")).toEqual(["summary_large_image"]);
    expect(byName(meta, "twitter:title")).toEqual([page.title]);
    expect(byName(meta, "twitter:description")).toEqual([page.description]);
    expect(byName(meta, "twitter:image")).toEqual([
      "https://www.nirmaan.digital/og/policies/privacy-policy.png",
    ]);
  });

  it("lets search engines index the page unless told not to", () => {
    expect(byName(meta, "robots")).toEqual([]);
    expect(byName(buildMeta({ ...page, noIndex: true }), "robots")).toEqual(["noindex"]);
  });

  it("joins the home path without a double slash", () => {
    const home = buildMeta({ ...page, path: "/" });
    expect(byProperty(home, "og:url")).toEqual(["https://www.nirmaan.digital/"]);
  });
});
