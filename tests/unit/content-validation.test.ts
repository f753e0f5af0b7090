import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { featuredWork } from "~/content/work";
import { formatFault, loadContent, svgDrawsText } from "../../scripts/lib/content/load";

const repository = resolve(import.meta.dirname, "../..");
const folders: string[] = [];

/** A copy of the repository's content/ with `files` written over it (relative to content/). */
function contentWith(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "content-"));
  folders.push(root);
  cpSync(join(repository, "content"), join(root, "content"), { recursive: true });
  for (const [path, text] of Object.entries(files)) writeFileSync(join(root, "content", path), text);
  return root;
}

async function faultsOf(files: Record<string, string>): Promise<string[]> {
  const { faults } = await loadContent(contentWith(files));
  return faults.map(formatFault);
}

afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const article = (front: string, body = "A body of words.") =>
  `---\ntitle: A title\ndescription: What it says.\nauthor: Meera Iyer\ndate: 2026-01-05\n${front}---\n${body}\n`;

describe("the content build's validation", () => {
  test("the repository's own content is valid", async () => {
    const { faults, content } = await loadContent(repository);
    expect(faults.map(formatFault)).toEqual([]);
    expect(content["case-studies"].map((entry) => entry.slug)).toContain("pawpal");
    expect(content.insights.length).toBeGreaterThanOrEqual(3);
  });

  test("the home page's work banner links a published case study", async () => {
    const { content } = await loadContent(repository);
    const slug = featuredWork.caseStudyPath.replace(/^\/case-studies\//, "");
    const study = content["case-studies"].find((entry) => entry.slug === slug);
    expect(study?.data.published).toBe(true);
  });

  test("a missing field and a too-long one are named with the file", async () => {
    const long = "x".repeat(111);
    expect(
      await faultsOf({
        "insights/a.md": `---\ntitle: ${long}\ndescription: d\ndate: 2026-01-05\n---\nBody\n`,
      }),
    ).toEqual([
      "content/insights/a.md: title: is longer than 110 characters",
      "content/insights/a.md: author: is missing",
    ]);
  });

  test("a file's body faults are named in the same run as its fields'", async () => {
    expect(
      await faultsOf({ "insights/a.md": "---\ntitle: T\ndate: 2026-01-05\n---\nHello <span>x</span>.\n" }),
    ).toEqual([
      "content/insights/a.md: description: is missing",
      "content/insights/a.md: author: is missing",
      "content/insights/a.md:5: body: raw HTML is not allowed (<span>)",
      "content/insights/a.md:5: body: raw HTML is not allowed (</span>)",
    ]);
  });

  test("an image that does not exist, and one without alt text", async () => {
    const faults = await faultsOf({
      "insights/a.md": article("cover:\n  src: images/nowhere.png\n  alt: A picture\n"),
      "insights/b.md": article("cover:\n  src: images/service-saas.svg\n"),
    });
    expect(faults).toEqual([
      "content/insights/a.md: cover.src: images/nowhere.png does not exist in content/",
      "content/insights/b.md: cover.alt: is missing",
    ]);
  });

  test("an SVG image that draws text with <text>", async () => {
    const faults = await faultsOf({
      "images/worded.svg":
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 10"><text x="0" y="8">Hi</text></svg>',
      "insights/a.md": article("cover:\n  src: images/worded.svg\n  alt: A greeting\n"),
    });
    expect(faults).toEqual([
      "content/insights/a.md: cover.src: images/worded.svg draws text with <text>: convert its text to outlines (paths) in the drawing program",
    ]);
  });

  test("the app's own SVG images draw no text either", () => {
    const folder = join(repository, "app", "images");
    const svgs = readdirSync(folder).filter((name) => name.endsWith(".svg"));
    expect(svgs.length).toBeGreaterThan(0);
    expect(svgs.filter((name) => svgDrawsText(readFileSync(join(folder, name), "utf8")))).toEqual([]);
  });

  test("a duplicate slug: a former slug that is another page's", async () => {
    expect(
      await faultsOf({
        "insights/a.md": article("redirect_from: [pawpal-story]\n"),
        "insights/b.md": article("redirect_from: [a]\n"),
      }),
    ).toEqual(['content/insights/b.md: redirect_from: slug "a" is also content/insights/a.md\'s']);
  });

  test("a duplicate id in a list", async () => {
    const partners =
      "partners:\n  - id: one\n    name: One\n    logo: { src: images/partner-reelwave.svg, alt: One }\n  - id: one\n    name: Two\n    logo: { src: images/partner-corvanta.svg, alt: Two }\n";
    expect(await faultsOf({ "partners.yml": partners })).toEqual([
      'content/partners.yml: partners.1.id: duplicate id "one"',
    ]);
  });

  test("a link to a page that does not exist, with its line", async () => {
    const body = "First line.\n\nSee [our work](/case-studies/nowhere) and [the form](/#contact).";
    expect(await faultsOf({ "insights/a.md": article("", body) })).toEqual([
      "content/insights/a.md:9: body: links to /case-studies/nowhere, a page that does not exist",
    ]);
  });

  test("raw HTML is refused with the file and line", async () => {
    const body = 'Words.\n\n<div class="x">hello</div>\n\nMore <b>bold</b> words.';
    expect(await faultsOf({ "insights/a.md": article("", body) })).toEqual([
      'content/insights/a.md:9: body: raw HTML is not allowed (<div class="x">hello</div>)',
      "content/insights/a.md:11: body: raw HTML is not allowed (<b>)",
      "content/insights/a.md:11: body: raw HTML is not allowed (</b>)",
    ]);
  });

  test("code is highlighted with classes, never inline styles", async () => {
    const { content } = await loadContent(
      contentWith({ "insights/a.md": article("", "```ts\nconst a = 1;\n```") }),
    );
    const html = content.insights.find((entry) => entry.slug === "a")?.html ?? "";
    expect(html).toContain('<code class="hljs language-ts"><span class="hljs-keyword">const</span>');
    expect(html).not.toContain("style=");
  });
});
