/**
 * An image named in a content file, as the build made it responsive: a <picture> whose AVIF and
 * WebP sources and fallback <img> carry every width in `srcset`, the layout width in `sizes`, and
 * the intrinsic width and height, so the box is reserved before the image loads.
 */
import type { ResponsiveImage } from "~/media/responsive-image";

interface Props {
  image: ResponsiveImage;
  /** Empty only for a purely decorative image; content files require it (their schema says so). */
  alt: string;
  /** The width the image takes in the layout, e.g. `(min-width: 1024px) 768px, 100vw`. */
  sizes: string;
  className?: string;
  /**
   * The page's largest image, above the fold: fetched first (`fetchpriority="high"`) rather than
   * lazily. Any other image loads lazily and decodes off the main thread.
   */
  priority?: boolean;
}

/** The attributes that tell the browser when to fetch and decode an image. */
export function loadingAttributes(priority: boolean) {
  return priority ? ({ fetchpriority: "high" } as const) : ({ loading: "lazy", decoding: "async" } as const);
}

export function ResponsivePicture({ image, alt, sizes, className, priority = false }: Props) {
  return (
    <picture>
      {image.sources.map((source) => (
        <source key={source.type} type={source.type} srcSet={source.srcset} sizes={sizes} />
      ))}
      <img
        src={image.src}
        srcSet={image.srcset}
        sizes={sizes}
        width={image.width}
        height={image.height}
        alt={alt}
        className={className}
        {...loadingAttributes(priority)}
      />
    </picture>
  );
}
