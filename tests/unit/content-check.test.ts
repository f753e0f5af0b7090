import { describe, expect, it } from "vitest";
import type { ServedResource } from "../../scripts/content-check/crawl";
import type { DocumentParts, Reference } from "../../scripts/content-check/document-parts";
import { kindOfPage, onePagePerKind } from "../../scripts/content-check/page-kinds";
import { servedFaults } from "../../scripts/content-check/served-checks";
import { BUDGETS } from "../support/byte-budgets";

// What `npm run check:content` makes of the answers its crawl kept (scripts/content-check/),
// on answers made up here; tests/integration/check-content.spec.ts runs it on a built site.

const origin = "http://127.0.0.1:4000";

function resource(path: string, fields: Partial<ServedResource> = {}): ServedResource {
  return {
    path,
    status: 200,
    type: "text/html",
    location: null,
    gzip: 5_000,
    parts: null,
    imageProblem: null,
    sendsBundle: false,
    error: null,
    ...fields,
  };
}

function page(
  path: string,
  references: Reference[],
  parts: Partial<DocumentParts> = {},
  fields: Partial<ServedResource> = {},
) {
  return resource(path, {
    parts: { references, anchors: ["main", "contact"], stylesheets: [], malformed: null, ...parts },
    ...fields,
  });
}

const link = (path: string, label = 'the link "Read more"'): Reference => ({
  url: `${origin}${path}`,
  label,
  image: false,
});
const image = (path: string): Reference => ({
  url: `${origin}${path}`,
  label: 'the image "A cover"',
  image: true,
});

function faultsOf(...resources: ServedResource[]) {
  return servedFaults(new Map(resources.map((served) => [served.path, served])), origin, []).map(
    (fault) => `${fault.where}: ${fault.message}`,
  );
}

describe("the links and images of what was served", () => {
  it("finds nothing wrong with links to pages that answer 200 and fragments their elements name", () => {
    expect(
      faultsOf(
        page("/insights/a", [link("/#contact"), link("/insights/a#main"), image("/media/a.avif")]),
        page("/", []),
        resource("/media/a.avif", { type: "image/avif" }),
      ),
    ).toEqual([]);
  });

  it("names the page, the link and what its target answered", () => {
    expect(
      faultsOf(
        page("/insights/a", [link("/case-studies/gone"), link("/old", 'the link "Old"')]),
        resource("/case-studies/gone", { status: 404 }),
        resource("/old", { status: 301, location: `${origin}/new` }),
      ),
    ).toEqual([
      '/insights/a: the link "Read more" to /case-studies/gone answers 404',
      '/insights/a: the link "Old" to /old is redirected (301) to /new: link there instead',
    ]);
  });

  it("names a fragment its page has no element for, but for the top of the page and the menu's close link", () => {
    expect(
      faultsOf(
        page("/insights/a", [
          link("/#pricing"),
          link("/#top"),
          link("/insights/a#close-menu"),
          link("/insights/a#nope"),
        ]),
        page("/", []),
      ),
    ).toEqual([
      '/insights/a: the link "Read more" to /#pricing: / has no element with id "pricing"',
      '/insights/a: the link "Read more" to /insights/a#nope: /insights/a has no element with id "nope"',
    ]);
  });

  it("checks a page's links to itself against its own elements, even on the not-found page", () => {
    expect(faultsOf(page("/no-such-page", [link("/no-such-page#main")], {}, { status: 404 }))).toEqual([]);
  });

  it("names an image that is not one, or that cannot be read", () => {
    expect(
      faultsOf(
        page("/", [image("/media/a.avif"), image("/media/b.png")]),
        resource("/media/a.avif", { type: "text/html" }),
        resource("/media/b.png", {
          type: "image/png",
          imageProblem: "Input buffer contains unsupported image format",
        }),
      ),
    ).toEqual([
      '/: the image "A cover" /media/a.avif is not an image (text/html)',
      '/: the image "A cover" /media/b.png cannot be read as an image: Input buffer contains unsupported image format',
    ]);
  });

  it("leaves other sites alone, and names an address that is none", () => {
    expect(
      faultsOf(
        page("/", [
          { url: "https://example.com/nowhere", label: "the link", image: false },
          { url: "mailto:hello@example.com", label: "the link", image: false },
          { url: "http://[oops", label: 'the link "Broken"', image: false },
        ]),
      ),
    ).toEqual(['/: the link "Broken" names "http://[oops", which is no address']);
  });

  it("says a repeated broken link once per page", () => {
    expect(faultsOf(page("/", [link("/#pricing"), link("/#pricing")]))).toHaveLength(1);
  });
});

describe("the documents and budgets of what was served", () => {
  it("names a feed or sitemap that is not well-formed, and a manifest that is not JSON", () => {
    expect(
      faultsOf(
        resource("/sitemap.xml", {
          type: "application/xml",
          parts: { references: [], anchors: null, stylesheets: [], malformed: "error on line 3 at column 9" },
        }),
        resource("/manifest.webmanifest", {
          type: "application/manifest+json",
          parts: { references: [], anchors: null, stylesheets: [], malformed: "not JSON: Unexpected token" },
        }),
      ),
    ).toEqual([
      "/sitemap.xml: is not well-formed XML: error on line 3 at column 9",
      "/manifest.webmanifest: is not well-formed JSON: not JSON: Unexpected token",
    ]);
  });

  it("holds an article to 30 KB of HTML and any other page to 20 KB, and every page's stylesheets to 12 KB", () => {
    const css = `${origin}/build/app.css`;
    expect(
      faultsOf(
        page("/insights/long", [], {}, { gzip: BUDGETS.contentPageHtml }),
        page("/insights/longer", [], {}, { gzip: BUDGETS.contentPageHtml + 1 }),
        page("/privacy-policy", [], {}, { gzip: BUDGETS.html + 1 }),
        page("/cookie-policy", [], { stylesheets: [css] }),
        resource("/build/app.css", { type: "text/css", gzip: BUDGETS.css + 1 }),
      ),
    ).toEqual([
      "/insights/longer: its HTML is over its budget: 30.0 KB / 30.0 KB (30721 of 30720 bytes) at gzip -9",
      "/privacy-policy: its HTML is over its budget: 20.0 KB / 20.0 KB (20481 of 20480 bytes) at gzip -9",
      "/cookie-policy: its CSS is over its budget: 12.0 KB / 12.0 KB (12289 of 12288 bytes) at gzip -9",
    ]);
  });

  it("names an address the crawl started from that did not answer as it must", () => {
    const served = new Map([
      ["/", resource("/", { status: 500 })],
      ["/no-such-page", resource("/no-such-page", { status: 200 })],
      ["/robots.txt", resource("/robots.txt", { status: 0, error: "fetch failed" })],
    ]);
    const expected = [
      { path: "/", status: 200 },
      { path: "/no-such-page", status: 404 },
      { path: "/robots.txt", status: 200 },
    ];
    expect(servedFaults(served, origin, expected).map((fault) => `${fault.where}: ${fault.message}`)).toEqual(
      [
        "/: answers 500, not 200",
        "/no-such-page: answers 200, not 404",
        "/robots.txt: answers nothing (fetch failed), not 200",
      ],
    );
  });
});

describe("the pages audited in the browser", () => {
  it("knows each kind of page by its address, the not-found page by its status", () => {
    expect(
      [
        "/",
        "/case-studies",
        "/case-studies/a",
        "/insights",
        "/insights/page/2",
        "/insights/a",
        "/cookie-policy",
      ].map((path) => kindOfPage(path, 200)),
    ).toEqual([
      "home",
      "case studies list",
      "case study",
      "insights list",
      "insights list",
      "article",
      "policy",
    ]);
    expect(kindOfPage("/anything", 404)).toBe("not found");
    expect(kindOfPage("/about", 200)).toBe("page /about");
  });

  it("audits the largest page of each kind, pages only, in the order of the kinds", () => {
    const audits = onePagePerKind(
      [
        resource("/case-studies/small", { gzip: 6_000 }),
        resource("/case-studies/large", { gzip: 9_000 }),
        resource("/no-such-page", { status: 404 }),
        resource("/insights/unpublished", { status: 410, gzip: 99_000 }),
        resource("/sitemap.xml", { type: "application/xml" }),
        resource("/", { sendsBundle: true }),
      ],
      "/no-such-page",
    );
    expect(audits).toEqual([
      { kind: "home", path: "/", status: 200, sendsBundle: true },
      { kind: "case study", path: "/case-studies/large", status: 200, sendsBundle: false },
      { kind: "not found", path: "/no-such-page", status: 404, sendsBundle: false },
    ]);
  });
});
