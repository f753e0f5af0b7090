import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { PolicyPage } from "~/components/policy-page";
import { collections } from "~/content/collections/index";
import { builtImages } from "~/content/generated/images.server";
import { cookiePolicy } from "~/content/policies/index.server";
import type { Policy } from "~/content/policies/types";
import { site } from "~/content/site";
import { policyRow, previewedCollections } from "~/editor-preview/collections.server";
import { previewDocument } from "~/editor-preview/document.server";
import { PENDING_IMAGE_SCHEME, type PreviewEntry } from "~/editor-preview/entry.server";
import { editorPreview } from "~/editor-preview/render.server";

const options = {
  fontStylesheet: "/admin/preview-fonts.css",
  hindiStylesheet: "/admin/preview-devanagari.css",
};

/** The document's <main>, where the page's components render. */
const mainOf = (html: string) => /<main id="main" class="flex-1">([\s\S]*)<\/main>/.exec(html)?.[1] ?? "";

describe("/admin's previews", () => {
  it("previews the collections that have a row, each one of the content's collections", () => {
    expect([...previewedCollections].sort()).toEqual(
      [
        "case-studies",
        "contact",
        "cookie-policy",
        "delivery",
        "insights",
        "partners",
        "privacy-policy",
        "services",
        "terms-conditions",
        "values",
      ].sort(),
    );
    for (const name of previewedCollections) expect(Object.keys(collections)).toContain(name);
    expect(editorPreview.collections).toBe(previewedCollections);
  });

  it("shows a policy entry as the policy page itself, whatever shape the entry has", () => {
    // A policy collection's entry made the Policy the pages show: here, the shape is the Policy itself.
    const row = policyRow<Policy>((entry) => entry.data as Policy);
    const entry = { slug: "cookie-policy", data: cookiePolicy, html: "", words: 0 } as PreviewEntry<Policy>;
    const html = previewDocument(row.render(entry), { scripted: row.scripted, stylesheets: [] });
    expect(mainOf(html)).toBe(renderToStaticMarkup(<PolicyPage policy={cookiePolicy} />));
    expect(html).not.toMatch(/<html[^>]*class=/);
  });

  it("previews a policy entry as its page: its sections, its placeholders filled as the page fills them", async () => {
    const answer = await editorPreview.render(
      "cookie-policy",
      {
        data: {
          title: "Cookie Policy",
          summary: "Which cookies {{name}} uses.",
          updated: "2026-12-07",
          body: "Write to {{email}}.\n\n## Cookies we use\n\nNone at all.",
        },
      },
      options,
    );
    expect(answer.status).toBe("page");
    const main = mainOf(answer.status === "page" ? answer.html : "");
    expect(main).toContain(`href="mailto:${site.email}"`);
    expect(main).toMatch(/<h2[^>]*>Cookies we use<\/h2>/);
    expect(main).toContain("None at all.");
    expect(main).not.toContain("{{");
  });

  it("gives the page the image the build made of a file it names, and marks one it has not made for the editor's copy", async () => {
    const [path, built] = Object.entries(builtImages)[0] ?? [];
    expect(path, "the content names no image").toBeDefined();
    const answer = await editorPreview.render(
      "partners",
      {
        data: {
          partners: [
            { id: "built", name: "Built Co", logo: { src: path, alt: "Built Co" } },
            { id: "new", name: "New Co", logo: { src: "images/new-co.png", alt: "New Co" } },
          ],
        },
      },
      options,
    );
    expect(answer.status).toBe("page");
    const html = answer.status === "page" ? answer.html : "";
    // The built file's own address (here, as the test's bundler inlines an SVG), never the editor's copy.
    expect(built?.src).toBeTruthy();
    expect(html).toMatch(/<img src="(?!preview:)[^"]+" alt="Built Co"/);
    expect(html).toContain(`src="${PENDING_IMAGE_SCHEME}images/new-co.png" alt="New Co"`);
    // The home page's sections are laid out as visitors with its script see them.
    expect(html).toMatch(/^<!doctype html><html lang="en" class="js painted">/);
  });

  it("shows an entry's own facts where the site shows the content's: the contact details in the contact section and the footer", async () => {
    const contact = {
      email: "editor-typed@example.in",
      phone: { display: "+91 11 2222 3333", e164: "+911122223333" },
      address: {
        street: "1 Test Road",
        locality: "Pune",
        region: "Maharashtra",
        postalCode: "411001",
        country: "India",
        countryCode: "IN",
        mapsUrl: "https://maps.example/1",
      },
    };
    const answer = await editorPreview.render("contact", { data: contact }, options);
    const html = answer.status === "page" ? answer.html : "";
    expect(html.match(/editor-typed@example\.in<\/a>/g)).toHaveLength(2);
    expect(html).toContain('href="tel:+911122223333"');
    expect(html).toContain("1 Test Road, Pune, Maharashtra 411001, India");
    // No WhatsApp number in the entry: no WhatsApp link, though the site has one.
    expect(html).not.toContain("wa.me");
  });

  it("adds the Devanagari font for an article in Hindi only", async () => {
    const article = (lang: string) => ({
      slug: "naya-lekh",
      data: {
        title: "नया लेख",
        description: "एक छोटा सा लेख।",
        author: "Test",
        lang,
        date: "2026-11-20",
        body: "पहला अनुच्छेद।",
      },
    });
    const hindi = await editorPreview.render("insights", article("hi"), options);
    const english = await editorPreview.render("insights", article("en"), options);
    expect(hindi.status === "page" && hindi.html).toContain(
      '<link rel="stylesheet" href="/admin/preview-devanagari.css"/>',
    );
    expect(english.status === "page" && english.html).not.toContain("preview-devanagari");
    expect(hindi.status === "page" && hindi.html).toContain(
      '<article lang="hi" class="mt-6 content-devanagari"',
    );
  });

  it("answers no preview for a collection without a row", async () => {
    expect((await editorPreview.render("scripts", {}, options)).status).toBe("no preview");
    expect((await editorPreview.render("__proto__", {}, options)).status).toBe("no preview");
  });
});
