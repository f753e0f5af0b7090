import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { HarfBuzz } from "harfbuzzjs";
import subsetFont from "subset-font";
import { afterAll, describe, expect, it } from "vitest";
import {
  FONTS_DIR,
  fontFile,
  subsetDevanagariFonts,
  WEIGHTS,
  wholeFontFile,
} from "../../scripts/lib/content/fonts";
import { type LoadedContent, type LoadedEntry, loadContent } from "../../scripts/lib/content/load";
import { FIXTURE_CONTENT_DIR } from "../support/fixture-content";

// The content build cuts the Devanagari faces to the Hindi articles' characters: every word of
// every Hindi article must still shape to real glyphs (no .notdef box), conjuncts included. On the
// tests' own articles (tests/fixtures/content).
const root = resolve(import.meta.dirname, "../..");
const fixtures = join(root, FIXTURE_CONTENT_DIR);
const scratch = mkdtempSync(join(tmpdir(), "devanagari-font-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const harfbuzz = createRequire(import.meta.url)("harfbuzzjs") as Promise<HarfBuzz>;

/** Shapes text with the font file (woff2, opened once through subset-font): the glyph ids HarfBuzz gives. */
async function shaper(file: string): Promise<(text: string) => number[]> {
  const hb = await harfbuzz;
  const sfnt = await subsetFont(readFileSync(file), "", { targetFormat: "sfnt", keepAllGlyphs: true });
  const font = hb.createFont(hb.createFace(hb.createBlob(sfnt), 0));
  return (text) => {
    const buffer = hb.createBuffer();
    buffer.addText(text);
    buffer.guessSegmentProperties();
    hb.shape(font, buffer);
    const ids = buffer.json().map((glyph) => glyph.g);
    buffer.destroy();
    return ids;
  };
}

/** The glyph ids HarfBuzz gives `text` in the font file. */
async function glyphs(file: string, text: string): Promise<number[]> {
  return (await shaper(file))(text);
}

/** The Devanagari words of a text (the faces' range: other characters come from another font). */
const devanagariWords = (text: string) => text.match(/[\u0900-\u097f\u200c\u200d]+/g) ?? [];

function hindiArticles(content: LoadedContent): LoadedEntry[] {
  return content.insights.filter((entry) => entry.data.lang === "hi");
}

describe("the Devanagari font the content build cuts", () => {
  it("shapes every word of every Hindi article in both weights, and is half the whole face or less", async () => {
    const { content, faults } = await loadContent(root, { dir: fixtures });
    expect(faults).toEqual([]);
    await subsetDevanagariFonts(root, content);
    const articles = hindiArticles(content);
    expect(articles.length).toBeGreaterThan(0);
    const words = [
      ...new Set(articles.flatMap((entry) => devanagariWords(`${JSON.stringify(entry.data)} ${entry.html}`))),
    ];
    expect(words.length).toBeGreaterThan(100);
    for (const weight of WEIGHTS) {
      const file = fontFile(join(root, FONTS_DIR), weight);
      const shape = await shaper(file);
      const missing = words.filter((word) => shape(word).includes(0));
      expect(missing, `${weight}: words with a .notdef glyph`).toEqual([]);
      expect(readFileSync(file).length).toBeLessThanOrEqual(
        readFileSync(wholeFontFile(root, weight)).length / 2 + 2048,
      );
    }
  });

  it("takes in a character an editor adds, and leaves out one no article uses", async () => {
    const { content } = await loadContent(root, { dir: fixtures });
    const [first] = hindiArticles(content);
    if (!first) throw new Error("content/ has no Hindi article");
    const om = "ॐ";
    expect(JSON.stringify(content.insights)).not.toContain(om);
    await subsetDevanagariFonts(root, content, scratch);
    expect(await glyphs(fontFile(scratch, "400"), om)).toContain(0);
    const edited = { ...first, data: { ...first.data, title: `${om} ${String(first.data.title)}` } };
    const withOm = {
      ...content,
      insights: content.insights.map((entry) => (entry === first ? edited : entry)),
    };
    await subsetDevanagariFonts(root, withOm, scratch);
    for (const weight of WEIGHTS) expect(await glyphs(fontFile(scratch, weight), om)).not.toContain(0);
  });
});
