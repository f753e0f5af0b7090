/** The part of subset-font's API the content build uses (the package ships no types). */
declare module "subset-font" {
  export default function subsetFont(
    font: Buffer,
    text: string,
    options?: { targetFormat?: "sfnt" | "woff" | "woff2" | "truetype"; keepAllGlyphs?: boolean },
  ): Promise<Buffer>;
}
