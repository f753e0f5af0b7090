import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { crc32 } from "node:zlib";
import sharp from "sharp";
import { afterEach, describe, expect, test } from "vitest";
import { makeImagesResponsive } from "../../scripts/lib/content/images";
import { formatFault, loadContent, svgDrawsText } from "../../scripts/lib/content/load";
import { FIXTURE_CONTENT_DIR } from "../support/fixture-content";

const repository = resolve(import.meta.dirname, "../..");
const folders: string[] = [];

/** A copy of the tests' content in a folder's content/, with `files` written over it (relative to content/). */
function contentWith(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "content-"));
  folders.push(root);
  cpSync(join(repository, FIXTURE_CONTENT_DIR), join(root, "content"), { recursive: true });
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
  test("the tests' content is valid, read from the folder it is given", async () => {
    const { faults, content } = await loadContent(repository, { dir: join(repository, FIXTURE_CONTENT_DIR) });
    expect(faults.map(formatFault)).toEqual([]);
    expect(content.home).toHaveLength(1);
    expect(content["case-studies"][0]?.file).toMatch(/^tests\/fixtures\/content\/case-studies\//);
  });

  test("words the pages fill in keep their placeholders and links, and an error's status is named once", async () => {
    const read = (name: string) => readFileSync(join(repository, FIXTURE_CONTENT_DIR, name), "utf8");
    const pages = read("pages.yml");
    const withdrawal = read("withdrawal.yml");
    expect(
      await faultsOf({
        "pages.yml": pages
          .replace(/readingTime: .*/, "readingTime: A short read")
          .replace(/( {4}- status: )405/, "$1400"),
        "withdrawal.yml": withdrawal
          .replace(/hint: .*/, "hint: To withdraw your consent, use this reference on our withdrawal page.")
          .replace(/( {4}limited: ).*/, "$1Too many tries."),
      }),
    ).toEqual([
      "content/pages.yml: readingTime: must keep {minutes}, which stands for the article's minutes",
      "content/pages.yml: errors.statuses: names a status twice",
      "content/withdrawal.yml: languages.0.limited: must keep {minutes}",
      "content/withdrawal.yml: hint: must have one link to this page, written [words](withdraw)",
    ]);
  });

  test("the home page's work banner must name a published case study", async () => {
    const home = readFileSync(join(repository, FIXTURE_CONTENT_DIR, "home.yml"), "utf8");
    const naming = (slug: string) => home.replace(/caseStudy: \S+/, `caseStudy: ${slug}`);
    expect(await faultsOf({ "home.yml": naming("nowhere") })).toEqual([
      "content/home.yml: work.caseStudy: names nowhere, but there is no case study nowhere (its file would be case-studies/nowhere.md)",
    ]);
    const study = readFileSync(
      join(repository, FIXTURE_CONTENT_DIR, "case-studies", "brightlend.md"),
      "utf8",
    );
    expect(
      await faultsOf({
        "home.yml": naming("brightlend"),
        "case-studies/brightlend.md": study.replace(/^---\n/, "---\npublished: false\n"),
      }),
    ).toEqual([
      "content/home.yml: work.caseStudy: names brightlend, a case study that is not published: publish it or name another",
    ]);
  });

  test("a phone or WhatsApp number shown must be the number its link dials", async () => {
    const contact = readFileSync(join(repository, FIXTURE_CONTENT_DIR, "contact.yml"), "utf8");
    expect(
      await faultsOf({
        "contact.yml": contact
          .replace(/(phone:\n {2}display: ).*/, "$1+91 80 4718 2291")
          .replace(/(whatsapp:\n {2}display: ).*/, "$1+91 98860 41725 ext 2"),
      }),
    ).toEqual([
      "content/contact.yml: phone.display: must be the number E.164 says, with spaces at most: the link dials E.164",
      "content/contact.yml: whatsapp.display: must be the wa.me number, with + and spaces at most: the link opens a chat with that number",
    ]);
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

describe("a content file is data, never code", () => {
  test("front matter in another language (---js, ---javascript, ---coffee, ---<word>) is refused, and its code never runs", async () => {
    const marker = join(mkdtempSync(join(tmpdir(), "content-marker-")), "ran");
    folders.push(marker.slice(0, -"/ran".length));
    const code = `{ title: (require("node:fs").writeFileSync(${JSON.stringify(marker)}, "ran"), "T") }`;
    const faults = await faultsOf({
      "insights/a.md": `---js\n${code}\n---\nBody\n`,
      "insights/b.md": `---javascript\n${code}\n---\nBody\n`,
      "insights/c.md": `---coffee\ntitle: "T"\n---\nBody\n`,
      "insights/d.md": "---toml\ntitle = 'T'\n---\nBody\n",
    });
    expect(faults).toEqual(
      [
        'a.md:1: (file): front matter is YAML only, and "---js"',
        'b.md:1: (file): front matter is YAML only, and "---javascript"',
        'c.md:1: (file): front matter is YAML only, and "---coffee"',
        'd.md:1: (file): front matter is YAML only, and "---toml"',
      ].map(
        (start) =>
          `content/insights/${start} asks for something else: start the file with a line of three hyphens alone`,
      ),
    );
    expect(existsSync(marker)).toBe(false);
  });

  test("YAML tags are refused, in front matter and in YAML files alike", async () => {
    expect(
      await faultsOf({
        "insights/a.md": article("seo:\n  title: !!js/function 'function () { return 1 }'\n"),
        "insights/b.md": article("seo:\n  title: !!binary aGk=\n"),
        "values.yml": "values: !custom [a]\n",
      }),
    ).toEqual([
      "content/values.yml:1: (file): is not valid YAML: Unresolved tag: !custom",
      "content/insights/a.md:7: (file): is not valid YAML: Unresolved tag: tag:yaml.org,2002:js/function",
      "content/insights/b.md:7: (file): is not valid YAML: Unresolved tag: tag:yaml.org,2002:binary",
    ]);
  });

  test("an alias bomb is refused before it expands", async () => {
    const bomb = [
      "a: &a [x, x, x, x, x, x, x, x, x]",
      "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]",
      "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]",
      "d: [*c, *c, *c, *c, *c, *c, *c, *c, *c]",
    ].join("\n");
    expect(await faultsOf({ "insights/a.md": article(`${bomb}\n`) })).toEqual([
      "content/insights/a.md: (file): is not valid YAML: Excessive alias count indicates a resource exhaustion attack",
    ]);
  });
});

/** A PNG's signature and IHDR chunk of `width` × `height`, and its end: a header with no pixels. */
function pngHeader(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A copy of content/ with `images` (relative to content/images/) and `files` written into it. */
function contentWithImages(images: Record<string, Buffer | string>, files: Record<string, string>): string {
  const root = contentWith(files);
  for (const [name, bytes] of Object.entries(images))
    writeFileSync(join(root, "content", "images", name), bytes);
  return root;
}

const withCover = (src: string) => article(`cover:\n  src: images/${src}\n  alt: A picture\n`);

describe("what a content file may hold", () => {
  test("a Markdown body over 200 KB, and a content file over 256 KB", async () => {
    expect(
      await faultsOf({
        "insights/a.md": article("", "word ".repeat(45_000)),
        "insights/b.md": "a".repeat(300 * 1024),
      }),
    ).toEqual([
      "content/insights/a.md: body: is 220 KB; a body is at most 200 KB: make it shorter or split it in two",
      "content/insights/b.md: (file): is 300 KB; a content file is at most 256 KB",
    ]);
  });

  test("an image over 20 MB, one over 40 megapixels by its header, and files that are not what their names say", async () => {
    const jpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#fff" } })
      .jpeg()
      .toBuffer();
    const root = contentWithImages(
      {
        "big.jpg": Buffer.concat([jpeg, Buffer.alloc(21 * 1024 * 1024)]),
        "huge.png": pngHeader(20_000, 20_000),
        "notes.png": "These are my notes, not a picture.\n",
        "photo.png": jpeg,
        "drawing.svg": "not a drawing",
      },
      {
        "insights/a.md": withCover("big.jpg"),
        "insights/b.md": withCover("huge.png"),
        "insights/c.md": withCover("notes.png"),
        "insights/d.md": withCover("photo.png"),
        "insights/e.md": withCover("drawing.svg"),
      },
    );
    const { faults } = await loadContent(root);
    expect(faults.map(formatFault)).toEqual([
      "content/insights/a.md: cover.src: images/big.jpg is 21 MB; an image is at most 20 MB: export it smaller",
      "content/insights/b.md: cover.src: images/huge.png is 20000 × 20000 pixels (400 megapixels); an image is at most 40 megapixels: export it smaller",
      "content/insights/c.md: cover.src: images/notes.png is not a PNG image: its bytes are not a PNG, JPEG, WebP, AVIF or SVG image",
      "content/insights/d.md: cover.src: images/photo.png is a JPEG image, not a PNG: export it again as a PNG image, or name it for what it is",
      "content/insights/e.md: cover.src: images/drawing.svg is not an SVG image: its bytes are not a PNG, JPEG, WebP, AVIF or SVG image",
    ]);
  });

  test("an image whose header is sound but whose pixels are cut short stops the image step with one line", async () => {
    const noise = Buffer.from(Array.from({ length: 64 * 48 * 3 }, (_, index) => (index * 7919) % 251));
    const png = await sharp(noise, { raw: { width: 64, height: 48, channels: 3 } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    const root = contentWithImages(
      { "cut.png": png.subarray(0, png.length / 2) },
      { "insights/a.md": withCover("cut.png") },
    );
    const { content, faults } = await loadContent(root);
    expect(faults.map(formatFault)).toEqual([]);
    const made = await makeImagesResponsive(root, content);
    expect(made.faults.map(formatFault)).toEqual([
      expect.stringMatching(
        /^content\/insights\/a\.md: \(image\): images\/cut\.png cannot be read as an image \([^\n]+\): export it again$/,
      ),
    ]);
  });

  test("a control character in a field, a nested field or the body is named with the field", async () => {
    expect(
      await faultsOf({
        "insights/a.md": article('seo:\n  description: "Fine \\x9F words"\n').replace(
          "A title",
          '"A\\x01 title"',
        ),
        "insights/b.md": article("", "First line.\n\nSecond\u007F line."),
      }),
    ).toEqual([
      "content/insights/a.md: title: holds the control character U+0001, which no page can show: delete it (retype the text around it if it cannot be seen)",
      "content/insights/a.md: seo.description: holds the control character U+009F, which no page can show: delete it (retype the text around it if it cannot be seen)",
      "content/insights/b.md:9: body: holds the control character U+007F, which no page can show: delete it (retype the text around it if it cannot be seen)",
    ]);
  });

  test("a tab, a line break and a carriage return are text, not control characters", async () => {
    expect(await faultsOf({ "insights/a.md": article("", "Tab\there.\r\nNext line.") })).toEqual([]);
  });

  test("a date must be a real calendar date; 29 February only in a leap year", async () => {
    expect(
      await faultsOf({
        "insights/a.md": article("").replace("date: 2026-01-05", 'date: "2026-13-45"'),
        "insights/b.md": article("updated: 2027-02-29\n"),
        "insights/c.md": article("updated: 2028-02-29\n"),
      }),
    ).toEqual([
      "content/insights/a.md: date: must be a real calendar date, YYYY-MM-DD: 2026-13-45 is none",
      "content/insights/b.md: updated: must be a real calendar date, YYYY-MM-DD: 2027-02-29 is none",
    ]);
  });

  test("a reference link's address is held to the rules of an inline link's", async () => {
    const addresses = ["javascript:alert(1)", "data:text/html,hi", "//evil.example", "/admin/"];
    const inline = await faultsOf({
      "insights/a.md": article("", addresses.map((url) => `See [this](${url}).`).join("\n\n")),
    });
    const reference = await faultsOf({
      "insights/a.md": article(
        "",
        addresses.map((url, index) => `See [this][r${index}].\n\n[r${index}]: ${url}`).join("\n\n"),
      ),
    });
    expect(inline).toEqual([
      'content/insights/a.md:7: body: link "javascript:alert(1)" must start with / (this site) or https:',
      'content/insights/a.md:9: body: link "data:text/html,hi" must start with / (this site) or https:',
      "content/insights/a.md:11: body: links to //evil.example, a page that does not exist",
      "content/insights/a.md:13: body: links to /admin/, a page that does not exist",
    ]);
    expect(reference).toEqual([
      'content/insights/a.md:9: body: link "javascript:alert(1)" must start with / (this site) or https:',
      'content/insights/a.md:13: body: link "data:text/html,hi" must start with / (this site) or https:',
      "content/insights/a.md:17: body: links to //evil.example, a page that does not exist",
      "content/insights/a.md:21: body: links to /admin/, a page that does not exist",
    ]);
  });

  test("front matter with no closing line is refused", async () => {
    expect(await faultsOf({ "insights/a.md": "---\ntitle: T\nBody\n" })).toEqual([
      "content/insights/a.md:1: (file): front matter has no closing line of three hyphens",
    ]);
  });
});

describe("a policy", () => {
  const policy = (body: string, front = "") =>
    `---\ntitle: Cookie Policy\nsummary: What {{name}} sets in your browser, and how to control it.\nupdated: 2026-11-23\n${front}---\n${body}\n`;

  test("is split at its ## headings into an introduction and sections", async () => {
    const { content, faults } = await loadContent(
      contentWith({
        "cookie-policy.md": policy(
          "Intro with {{email}}.\n\n## First & foremost\n\nOne.\n\n## Save preferences\n\n- {{if whatsapp}} A\n- B",
        ),
      }),
    );
    expect(faults.map(formatFault)).toEqual([]);
    const { policyParts } = await import("~/content/policies/parts");
    expect(policyParts(content["cookie-policy"][0]?.html ?? "")).toEqual({
      intro: "<p>Intro with {{email}}.</p>",
      sections: [
        { heading: "First & foremost", html: "<p>One.</p>" },
        { heading: "Save preferences", html: "<ul>\n<li>{{if whatsapp}} A</li>\n<li>B</li>\n</ul>" },
      ],
    });
  });

  test("refuses other headings, unknown placeholders and conditions, and a condition inside a sentence", async () => {
    expect(
      await faultsOf({
        "cookie-policy.md": policy(
          "# Title\n\n## Section\n\nWrite to {{emial}}.\n\n{{if sunny}} Then.\n\nNow {{if whatsapp}} here.\n\n### Sub",
          "",
        ).replace("{{name}}", "{{nmae}}"),
      }),
    ).toEqual([
      "content/cookie-policy.md: summary: {{nmae}} is no placeholder the site knows here: use {{name}}, {{short-name}}, {{city}}, {{region}}, {{country}}, {{address}}, {{founding-year}}, {{whatsapp}}, {{retention-days}}, {{spam-retention-days}}, {{privacy-contact-name}}, {{email}}, {{phone}}, {{privacy-contact-email}}",
      "content/cookie-policy.md:6: body: a policy's headings are its sections' (## Heading): no other level",
      "content/cookie-policy.md:16: body: a policy's headings are its sections' (## Heading): no other level",
      "content/cookie-policy.md:10: body: {{emial}} is no placeholder the site knows: use {{name}}, {{short-name}}, {{city}}, {{region}}, {{country}}, {{address}}, {{founding-year}}, {{whatsapp}}, {{retention-days}}, {{spam-retention-days}}, {{privacy-contact-name}}, {{email}}, {{phone}}, {{privacy-contact-email}}",
      "content/cookie-policy.md:12: body: {{if sunny}} is no condition the site knows: use {{if whatsapp}}, {{if privacy-contact-named}}, {{if privacy-contact-unnamed}}",
      "content/cookie-policy.md:14: body: {{if whatsapp}} must open a paragraph or a list item, as {{if whatsapp}} Text…",
    ]);
  });

  test("the privacy policy must say the retention and the privacy contact, which the server's settings decide", async () => {
    const faults = await faultsOf({
      "privacy-policy.md": policy("## Rights\n\nWrite to {{email}}. Ask {{privacy-contact-name}}.").replace(
        "Cookie Policy",
        "Privacy Policy",
      ),
    });
    expect(faults).toEqual([
      "content/privacy-policy.md:8: body: {{privacy-contact-name}} is known only when PRIVACY_CONTACT names a person: open its paragraph with {{if privacy-contact-named}}",
      "content/privacy-policy.md:6: body: must say {{retention-days}}: the server's settings decide it, and the privacy notice beside the form says the same",
      "content/privacy-policy.md:6: body: must say {{spam-retention-days}}: the server's settings decide it, and the privacy notice beside the form says the same",
      "content/privacy-policy.md:6: body: must say {{privacy-contact-email}}: the server's settings decide it, and the privacy notice beside the form says the same",
    ]);
  });
});

describe("code blocks", () => {
  test("are focusable and named, in the article's language", async () => {
    const block = "```ts\nconst a = 1;\n```";
    const { content } = await loadContent(
      contentWith({
        "insights/a.md": article("", block),
        "insights/b.md": article("lang: hi\n", block),
      }),
    );
    const html = (slug: string) => content.insights.find((entry) => entry.slug === slug)?.html ?? "";
    expect(html("a")).toContain('<pre tabindex="0" role="group" aria-label="Code example"><code');
    expect(html("b")).toContain('<pre tabindex="0" role="group" aria-label="कोड का उदाहरण"><code');
  });
});
