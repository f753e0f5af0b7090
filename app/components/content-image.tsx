/**
 * Every image a content file names, rendered one way, always with the width and height the build
 * read (the page never shifts): a raster image as a <picture> of the widths and formats the build
 * made (./responsive-picture), an SVG as a plain <img> (it scales without them).
 */
import type { ContentImageData } from "~/content/entries";
import { loadingAttributes, ResponsivePicture } from "./responsive-picture";

interface ContentImageProps {
  image: ContentImageData;
  /** The width the image takes in the layout, for `sizes`: `(min-width: 896px) 848px, calc(100vw - 48px)`. */
  sizes: string;
  className?: string;
  /** The page's largest image, above the fold: fetched first rather than lazily. */
  priority?: boolean;
}

export function ContentImage({ image, sizes, className, priority = false }: ContentImageProps) {
  if (image.responsive) {
    return (
      <ResponsivePicture
        image={image.responsive}
        alt={image.alt}
        sizes={sizes}
        priority={priority}
        {...(className ? { className } : {})}
      />
    );
  }
  return (
    <img
      src={image.src}
      alt={image.alt}
      width={image.width}
      height={image.height}
      className={className}
      {...loadingAttributes(priority)}
    />
  );
}
