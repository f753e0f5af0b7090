/**
 * Makes an image named in a content file responsive at build time with sharp: each width of
 * IMAGE_WIDTHS up to the source's own, in AVIF, WebP and a JPEG (or PNG) fallback, into
 * public/media/. The work is cached by the source's content hash in .cache/media/, so a rebuild
 * only copies what an unchanged image made before.
 */
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { IMAGE_WIDTHS, type ModernImageType, type ResponsiveImage } from "~/media/responsive-image";

/** Bumped when what is made from a source changes, so cached results of the old recipe are not reused. */
const RECIPE = "1:avif50-webp75-jpeg78-png";

export interface ResponsiveImageOptions {
  /** Where the files go (public/media), served under `urlBase`. */
  outDir: string;
  /** The URL path of outDir, e.g. `/media`. */
  urlBase: string;
  /** Where results are kept between builds (.cache/media). */
  cacheDir: string;
  /** sharp refuses a source of more pixels than this (a backstop: the content build checks the header first). */
  maxPixels: number;
}

interface Made {
  image: ResponsiveImage;
  files: string[];
}

const FORMATS: readonly { type: ModernImageType; ext: "avif" | "webp" }[] = [
  { type: "image/avif", ext: "avif" },
  { type: "image/webp", ext: "webp" },
];

/** The responsive set of one source file; reuses the cache when its bytes were seen before. */
export async function responsiveImage(
  sourcePath: string,
  options: ResponsiveImageOptions,
): Promise<ResponsiveImage> {
  const bytes = readFileSync(sourcePath);
  const hash = createHash("sha256").update(RECIPE).update(bytes).digest("hex").slice(0, 16);
  const record = join(options.cacheDir, `${hash}.json`);
  mkdirSync(options.cacheDir, { recursive: true });
  mkdirSync(options.outDir, { recursive: true });
  let made: Made;
  if (existsSync(record)) {
    made = JSON.parse(readFileSync(record, "utf8")) as Made;
  } else {
    made = await make(bytes, hash, options);
    writeFileSync(record, JSON.stringify(made));
  }
  for (const file of made.files) {
    const target = join(options.outDir, file);
    if (!existsSync(target)) copyFileSync(join(options.cacheDir, file), target);
  }
  return made.image;
}

async function make(bytes: Buffer, hash: string, options: ResponsiveImageOptions): Promise<Made> {
  // `rotate()` applies the EXIF orientation a phone photo carries, so width and height are as shown.
  const input = { limitInputPixels: options.maxPixels };
  const metadata = await sharp(bytes, input).rotate().metadata();
  const upright = (metadata.orientation ?? 1) >= 5;
  const sourceWidth = (upright ? metadata.height : metadata.width) ?? 0;
  const sourceHeight = (upright ? metadata.width : metadata.height) ?? 0;
  if (sourceWidth === 0 || sourceHeight === 0) throw new Error("the image has no size sharp can read");
  const widths: number[] = IMAGE_WIDTHS.filter((width) => width < sourceWidth);
  if (widths.length < IMAGE_WIDTHS.length) widths.push(sourceWidth);
  const fallback = metadata.hasAlpha ? "png" : "jpeg";
  const fallbackExt = fallback === "png" ? "png" : "jpg";
  const files: string[] = [];
  const sets = new Map<string, string[]>();
  for (const width of widths) {
    const resized = sharp(bytes, input).rotate().resize({ width, withoutEnlargement: true });
    for (const ext of ["avif", "webp", fallbackExt] as const) {
      const name = `${hash}-${width}.${ext}`;
      const encoded =
        ext === "avif"
          ? resized.clone().avif({ quality: 50, effort: 2 })
          : ext === "webp"
            ? resized.clone().webp({ quality: 75 })
            : ext === "png"
              ? resized.clone().png({ compressionLevel: 9, palette: true })
              : resized.clone().jpeg({ quality: 78, mozjpeg: true });
      // No metadata is kept: a phone photo's EXIF (its place, its camera) never reaches a visitor.
      await encoded.toFile(join(options.cacheDir, name));
      files.push(name);
      sets.set(ext, [...(sets.get(ext) ?? []), `${options.urlBase}/${name} ${width}w`]);
    }
  }
  const largest = widths[widths.length - 1] ?? sourceWidth;
  const image: ResponsiveImage = {
    src: `${options.urlBase}/${hash}-${largest}.${fallbackExt}`,
    srcset: (sets.get(fallbackExt) ?? []).join(", "),
    sources: FORMATS.map(({ type, ext }) => ({ type, srcset: (sets.get(ext) ?? []).join(", ") })),
    width: largest,
    height: Math.round((sourceHeight * largest) / sourceWidth),
  };
  return { image, files };
}
