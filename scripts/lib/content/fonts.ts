/**
 * The content build's font step: the Devanagari faces (Noto Sans Devanagari 400 and 700, from
 * @fontsource) cut down to the characters the Hindi articles use, into app/content/generated/fonts/,
 * where app/styles/devanagari.css and app/media/devanagari-font.ts take them from. Whole, the two
 * files are 104 KB, and a Hindi article's largest paint waited for them on a slow connection; cut
 * to the site's Hindi text (HarfBuzz's subsetter keeps every conjunct and mark those characters
 * can form), they are about half that. A character an editor adds is in the next build's files.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import subsetFont from "subset-font";
import type { LoadedContent } from "./load";

export const FONTS_DIR = "app/content/generated/fonts";
export const WEIGHTS = ["400", "700"] as const;
/** Kept whatever the text: the danda, the digits, the joiners and the dotted circle HarfBuzz shows for a lone mark. */
const ALWAYS = "।॥०१२३४५६७८९\u200c\u200d\u25cc\u20b9";

export interface SubsetFonts {
  characters: number;
  bytes: number;
  milliseconds: number;
}

/** The file of one weight in `folder`. */
export const fontFile = (folder: string, weight: (typeof WEIGHTS)[number]) =>
  join(folder, `noto-sans-devanagari-${weight}.woff2`);

/** Writes both weights into `folder` (the app's, unless a test names another), unless they are current. */
export async function subsetDevanagariFonts(
  root: string,
  content: LoadedContent,
  folder = join(root, FONTS_DIR),
): Promise<SubsetFonts> {
  const started = performance.now();
  const characters = [...new Set(ALWAYS + hindiText(content))].filter(inFontRange).sort().join("");
  mkdirSync(folder, { recursive: true });
  const stamp = join(folder, "characters.sha256");
  const hash = createHash("sha256").update(characters).digest("hex");
  const outputs = WEIGHTS.map((weight) => fontFile(folder, weight));
  const current =
    existsSync(stamp) && readFileSync(stamp, "utf8") === hash && outputs.every((path) => existsSync(path));
  if (!current) {
    for (const [index, weight] of WEIGHTS.entries()) {
      writeFileSync(
        outputs[index] as string,
        await subsetFont(readFileSync(wholeFontFile(root, weight)), characters, { targetFormat: "woff2" }),
      );
    }
    writeFileSync(stamp, hash);
  }
  const bytes = outputs.reduce((sum, path) => sum + readFileSync(path).length, 0);
  return { characters: [...characters].length, bytes, milliseconds: Math.round(performance.now() - started) };
}

/** The whole face of one weight, as @fontsource ships it. */
export const wholeFontFile = (root: string, weight: (typeof WEIGHTS)[number]) =>
  join(
    root,
    `node_modules/@fontsource/noto-sans-devanagari/files/noto-sans-devanagari-devanagari-${weight}-normal.woff2`,
  );

/** The faces' `unicode-range` in app/styles/devanagari.css: the browser asks them for nothing else. */
const FONT_RANGE = [
  [0x0900, 0x097f],
  [0x1cd0, 0x1cf9],
  [0x200c, 0x200d],
  [0x20a8, 0x20a8],
  [0x20b9, 0x20b9],
  [0x20f0, 0x20f0],
  [0x25cc, 0x25cc],
  [0xa830, 0xa839],
  [0xa8e0, 0xa8ff],
] as const;

function inFontRange(character: string): boolean {
  const code = character.codePointAt(0) ?? 0;
  return FONT_RANGE.some(([first, last]) => code >= first && code <= last);
}

/** Every string of every Hindi article: its fields and its body's HTML. */
function hindiText(content: LoadedContent): string {
  const strings: string[] = [];
  const collect = (value: unknown): void => {
    if (typeof value === "string") strings.push(value);
    else if (Array.isArray(value)) value.forEach(collect);
    else if (value && typeof value === "object") Object.values(value).forEach(collect);
  };
  for (const entry of content.insights) {
    if (entry.data.lang !== "hi") continue;
    collect(entry.data);
    strings.push(entry.html ?? "");
  }
  return strings.join("");
}
