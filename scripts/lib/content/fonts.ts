/**
 * The content build's font step: the Devanagari faces (Noto Sans Devanagari 400 and 700, from
 * @fontsource) cut down to the characters the Hindi articles use, into app/content/generated/fonts/,
 * where app/styles/devanagari.css and app/media/devanagari-font.ts take them from. Whole, the two
 * files are 104 KB, and a Hindi article's largest paint waited for them on a slow connection; cut
 * to the site's Hindi text (HarfBuzz's subsetter keeps every conjunct and mark those characters
 * can form), they are about half that. A character an editor adds is in the next build's files.
 */
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
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
  const range = fontRange(root);
  const inRange = (character: string) => {
    const code = character.codePointAt(0) ?? 0;
    return range.some(([first, last]) => code >= first && code <= last);
  };
  const characters = [...new Set(ALWAYS + hindiText(content))].filter(inRange).sort().join("");
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

/**
 * The faces' `unicode-range`, read from their stylesheet: the browser asks them for nothing else,
 * so no other character needs a glyph.
 */
function fontRange(root: string): Array<[number, number]> {
  const css = readFileSync(join(root, "app/styles/devanagari.css"), "utf8");
  const declared = /unicode-range:([^;]+);/.exec(css)?.[1];
  if (!declared)
    throw new Error("app/styles/devanagari.css: no unicode-range to cut the Devanagari faces to");
  return declared.split(",").map((part) => {
    const [first = "", last = first] = part.trim().replace(/^U\+/i, "").split("-");
    return [Number.parseInt(first, 16), Number.parseInt(last, 16)];
  });
}

/** Every string of every Hindi article (its fields, as JSON keeps them) and its body's HTML. */
function hindiText(content: LoadedContent): string {
  return content.insights
    .filter((entry) => entry.data.lang === "hi")
    .map((entry) => JSON.stringify(entry.data) + (entry.html ?? ""))
    .join("");
}

/**
 * The Devanagari font of /admin's previews: the page's own stylesheet (app/styles/devanagari.css)
 * with the whole faces instead of the pages' cut, since an editor types characters no page has
 * yet, and shown at once (`block`) rather than only when already there, as a page's `optional`
 * does; served at /admin/preview-devanagari.css (server/admin/preview.ts), written by the build's media step.
 */
export function writePreviewFont(root: string, outDir: string): void {
  mkdirSync(join(outDir, "fonts"), { recursive: true });
  let css = readFileSync(join(root, "app", "styles", "devanagari.css"), "utf8");
  for (const weight of WEIGHTS) {
    copyFileSync(wholeFontFile(root, weight), join(outDir, "fonts", `noto-sans-devanagari-${weight}.woff2`));
    css = css.replace(
      `../content/generated/fonts/noto-sans-devanagari-${weight}.woff2`,
      `fonts/noto-sans-devanagari-${weight}.woff2`,
    );
  }
  css = css.replaceAll("font-display: optional", "font-display: block");
  if (css.includes("generated/fonts") || !css.includes("font-display: block")) {
    throw new Error("app/styles/devanagari.css no longer reads as writePreviewFont expects: update it");
  }
  writeFileSync(join(outDir, "preview-devanagari.css"), css);
}
