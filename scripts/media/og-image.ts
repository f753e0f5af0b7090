/**
 * Makes a page's Open Graph image at build time: a 1200 × 630 PNG with the page's title, its kind
 * and the brand, drawn by satori (layout to SVG) and @resvg/resvg-js (SVG to PNG) with the site's
 * own fonts, Plus Jakarta Sans, and Noto Sans Devanagari for titles in Hindi.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Resvg } from "@resvg/resvg-js";
import satori from "satori";
import { OG_IMAGE_SIZE } from "~/media/og-path";

const require = createRequire(import.meta.url);
const fontFile = (specifier: string) => readFileSync(require.resolve(specifier));

/** satori reads WOFF2; a variable font is drawn at its default instance. Loaded once per process. */
let fonts: Parameters<typeof satori>[1]["fonts"] | undefined;
function loadFonts() {
  fonts ??= [
    {
      name: "Plus Jakarta Sans",
      data: fontFile(
        "@fontsource-variable/plus-jakarta-sans/files/plus-jakarta-sans-latin-wght-normal.woff2",
      ),
      weight: 700,
      style: "normal",
    },
    {
      name: "Plus Jakarta Sans",
      data: fontFile(
        "@fontsource-variable/plus-jakarta-sans/files/plus-jakarta-sans-latin-ext-wght-normal.woff2",
      ),
      weight: 700,
      style: "normal",
    },
    {
      name: "Noto Sans Devanagari",
      data: fontFile(
        "@fontsource/noto-sans-devanagari/files/noto-sans-devanagari-devanagari-700-normal.woff",
      ),
      weight: 700,
      style: "normal",
    },
  ];
  return fonts;
}

export interface OgImageInput {
  /** The page's title, as large as fits (a long one wraps and shrinks); Devanagari is drawn in Noto Sans Devanagari. */
  title: string;
  /** A short line above the title: "Case study", "Insight", "Privacy policy"… */
  eyebrow?: string;
  /** The brand's name, shown at the foot with its mark. */
  brand: string;
  /** The brand's colour (the site's --color-primary). */
  color?: string;
}

const h = (type: string, style: Record<string, unknown>, children?: unknown) => ({
  type,
  props: { style, children },
  key: null,
});

/** Larger for short titles; never so large that three lines overflow. */
function titleSize(title: string): number {
  const length = [...title].length;
  if (length <= 32) return 76;
  if (length <= 60) return 64;
  if (length <= 90) return 54;
  return 44;
}

/** The image's SVG: the same input always gives the same bytes. */
export async function ogImageSvg(input: OgImageInput): Promise<string> {
  const color = input.color ?? "#7255f7";
  const tree = h(
    "div",
    {
      // satori sizes the content box: the padding and the border are outside these.
      width: OG_IMAGE_SIZE.width - 2 * 80,
      height: OG_IMAGE_SIZE.height - 2 * 64 - 24,
      display: "flex",
      flexDirection: "column",
      justifyContent: "space-between",
      padding: "64px 80px",
      background: "#ffffff",
      borderTop: `24px solid ${color}`,
      fontFamily: "Plus Jakarta Sans, Noto Sans Devanagari",
      color: "#111114",
    },
    [
      h("div", { display: "flex", flexDirection: "column", width: 1040 }, [
        ...(input.eyebrow
          ? [
              h(
                "div",
                { fontSize: 30, color, marginBottom: 24, textTransform: "uppercase", letterSpacing: 2 },
                input.eyebrow,
              ),
            ]
          : []),
        h(
          "div",
          { fontSize: titleSize(input.title), fontWeight: 700, lineHeight: 1.15, width: 1040 },
          input.title,
        ),
      ]),
      h("div", { display: "flex", alignItems: "center" }, [
        h(
          "div",
          {
            width: 56,
            height: 56,
            borderRadius: 14,
            backgroundColor: color,
            marginRight: 20,
            display: "flex",
          },
          "",
        ),
        h("div", { fontSize: 36, fontWeight: 700 }, input.brand),
      ]),
    ],
  );
  // satori takes React elements; a plain tree of { type, props } is what JSX compiles to.
  return satori(tree as Parameters<typeof satori>[0], { ...OG_IMAGE_SIZE, fonts: loadFonts() });
}

/** The image as PNG bytes, 1200 × 630. */
export async function ogImagePng(input: OgImageInput): Promise<Buffer> {
  const svg = await ogImageSvg(input);
  return new Resvg(svg, { fitTo: { mode: "original" }, font: { loadSystemFonts: false } }).render().asPng();
}
