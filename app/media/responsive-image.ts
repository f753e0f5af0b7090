/**
 * What the build makes of an image named in a content file, and what the page renders from it:
 * the widths of each modern format for `srcset`, a fallback every browser reads, and the
 * intrinsic size, so that the image reserves its box before it loads (no layout shift).
 */

export type ModernImageType = "image/avif" | "image/webp";

export interface ResponsiveImage {
  /** The fallback's largest width: what a browser without `srcset` loads. */
  src: string;
  /** The fallback (JPEG, or PNG for an image with transparency) at every width, for `srcset`. */
  srcset: string;
  /** AVIF first, then WebP: the browser takes the first it reads. */
  sources: readonly { type: ModernImageType; srcset: string }[];
  /** The largest width made and its height, in the source's proportions. */
  width: number;
  height: number;
}

/** The widths made from a source, those no wider than the source (never enlarged). */
export const IMAGE_WIDTHS = [480, 768, 1200, 1600] as const;
