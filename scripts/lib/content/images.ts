/**
 * The content build's image step: every raster image named in a content file (each image field of
 * every collection; Markdown bodies may name none, the loader refuses them) is made responsive
 * with sharp (scripts/media/responsive-image.ts) into public/media/, and its loaded data gains the
 * widths and formats made, and the upright width and height. SVGs pass through as they are.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { ResponsiveImage } from "~/media/responsive-image";
import { responsiveImage } from "../../media/responsive-image";
import { MAX_IMAGE_PIXELS } from "./limits";
import { type ContentFault, isLoadedImage, type LoadedContent, type LoadedImage, unreadable } from "./load";

/** Where the files go and where the work is kept between builds, relative to the repository root. */
export const MEDIA_DIR = "public/media";
export const MEDIA_CACHE_DIR = ".cache/media";

export interface MadeImages {
  /** Raster images made responsive (each file once, however many entries name it). */
  images: number;
  /** Files in public/media/. */
  files: number;
  milliseconds: number;
  /** Images sharp could not make responsive, one line each; the build stops on any. */
  faults: ContentFault[];
}

/**
 * Makes every raster image of `content` responsive. public/media/ is emptied first, so it holds
 * only what the content names now; the cache in .cache/media/ makes an unchanged image a copy.
 */
export async function makeImagesResponsive(
  root: string,
  content: LoadedContent,
  dir = join(root, "content"),
): Promise<MadeImages> {
  const started = performance.now();
  const outDir = join(root, MEDIA_DIR);
  rmSync(outDir, { recursive: true, force: true });
  const options = {
    outDir,
    urlBase: "/media",
    cacheDir: join(root, MEDIA_CACHE_DIR),
    maxPixels: MAX_IMAGE_PIXELS,
  };
  const made = new Map<string, ResponsiveImage>();
  const faults: ContentFault[] = [];
  for (const entry of Object.values(content).flat()) {
    for (const image of imagesIn(entry.data)) {
      if (image.src.endsWith(".svg")) continue;
      let responsive = made.get(image.src);
      if (!responsive) {
        try {
          responsive = await responsiveImage(join(dir, image.src), options);
        } catch (error) {
          // A header the loader accepted over pixels sharp cannot decode (a cut-short file).
          faults.push({ file: entry.file, field: "(image)", message: unreadable(image.src, error) });
          continue;
        }
        made.set(image.src, responsive);
      }
      image.responsive = responsive;
      image.src = responsive.src;
      image.width = responsive.width;
      image.height = responsive.height;
    }
  }
  const files = [...made.values()].reduce(
    (sum, image) => sum + (image.sources.length + 1) * image.srcset.split(", ").length,
    0,
  );
  return { images: made.size, files, milliseconds: Math.round(performance.now() - started), faults };
}

/** The measured images anywhere in one entry's data (a field, a list, a nested object). */
function imagesIn(value: unknown): LoadedImage[] {
  if (isLoadedImage(value)) return [value];
  if (Array.isArray(value)) return value.flatMap(imagesIn);
  if (typeof value === "object" && value !== null) return Object.values(value).flatMap(imagesIn);
  return [];
}
