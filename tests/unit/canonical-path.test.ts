import { describe, expect, it } from "vitest";
import { canonicalPath, isCanonicalSpelling, normalPath, pageRouteMatcher } from "~/http/canonical-path";

// The routes as the Remix build lists them (app/routes), the catch-all included.
const routes = {
  root: { path: "" },
  "routes/_index": { parentId: "root" },
  "routes/$": { parentId: "root", path: "*" },
  "routes/privacy-policy": { parentId: "root", path: "privacy-policy" },
  "routes/insights._index": { parentId: "root", path: "insights" },
  "routes/insights.$slug": { parentId: "root", path: "insights/:slug" },
  "routes/insights.page.$page": { parentId: "root", path: "insights/page/:page" },
  "routes/insights.feed[.]xml": { parentId: "root", path: "insights/feed.xml" },
};
const isPage = pageRouteMatcher(routes);

describe("normalPath", () => {
  it.each([
    ["/", "/"],
    ["/insights/a%2Db", "/insights/a-b"],
    ["/insights/a%2db", "/insights/a-b"],
    ["/%69nsights", "/insights"],
    ["/a%2fb", "/a%2Fb"],
    ["/caf%c3%a9", "/caf%C3%A9"],
    ["/insights/", "/insights"],
    ["//insights//a", "/insights/a"],
    ["/a/../insights/./b", "/insights/b"],
    ["/../..", "/"],
    ["/%2E%2E/insights", "/insights"],
  ])("%s is %s", (path, normal) => {
    expect(normalPath(path)).toBe(normal);
  });

  it.each(["/a\\b", "/a%zz", "/a%", "/a b", "insights"])("leaves %s as it is", (path) => {
    expect(normalPath(path)).toBeNull();
  });
});

describe("canonicalPath", () => {
  it.each([
    ["/INSIGHTS/a-b", "/insights/a-b"],
    ["/Insights/A-B/", "/insights/a-b"],
    ["/insights/a%2Db", "/insights/a-b"],
    ["/Privacy-Policy", "/privacy-policy"],
    ["//", "/"],
    ["/insights/page/1/", "/insights/page/1"],
    ["/insights/Feed.XML", "/insights/feed.xml"],
  ])("spells %s as %s", (path, canonical) => {
    expect(canonicalPath(path, isPage)).toBe(canonical);
  });

  it("leaves a page's one spelling as it is", () => {
    for (const path of ["/", "/insights", "/insights/a-b", "/insights/page/2", "/privacy-policy"]) {
      expect(canonicalPath(path, isPage)).toBe(path);
      expect(isCanonicalSpelling(path)).toBe(true);
    }
  });

  it.each([
    ["a build file", "/build/entry.client-ABC123.js"],
    ["a content image", "/media/Photo-800.avif"],
    ["a public file", "/og-image.png/"],
    ["the content editor", "/admin/"],
    ["the health check", "/healthz/"],
    ["an unknown path, which only the catch-all answers", "/No-Such-Page/"],
    ["a path deeper than any route", "/insights/a/b/c"],
    ["a data request", "/Privacy-Policy.data"],
  ])("names no page for %s: left to the files and the app", (_label, path) => {
    expect(canonicalPath(path, isPage)).toBeNull();
  });

  it.each(["/Privacy-Policy", "/privacy-policy/", "/privacy%2Dpolicy", "//privacy-policy"])(
    "%s is not a canonical spelling",
    (path) => {
      expect(isCanonicalSpelling(path)).toBe(false);
    },
  );
});
