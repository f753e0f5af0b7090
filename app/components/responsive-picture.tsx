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
  /** `eager` for the first image on screen (it is the largest paint); `lazy` otherwise. */
  loading?: "eager" | "lazy";
}

export function ResponsivePicture({ image, alt, sizes, className, loading = "lazy" }: Props) {
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
        loading={loading}
        decoding={loading === "lazy" ? "async" : "auto"}
        className={className}
      />
    </picture>
  );
}
