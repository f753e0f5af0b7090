/**
 * Every image a content file names, rendered one way: for now a plain <img> with the width and
 * height the build read, so the page never shifts; responsive sizes slot in here alone.
 */
import type { ContentImageData } from "~/content/entries";

interface ContentImageProps {
  image: ContentImageData;
  className?: string;
  /** The page's largest image, above the fold: fetched first rather than lazily. */
  priority?: boolean;
}

export function ContentImage({ image, className, priority = false }: ContentImageProps) {
  return (
    <img
      src={image.src}
      alt={image.alt}
      width={image.width}
      height={image.height}
      className={className}
      decoding="async"
      {...(priority ? { fetchpriority: "high" } : { loading: "lazy" as const })}
    />
  );
}
