/** The services the agency offers (edited in content/services/; the section's introduction: content/home.yml). */
import type { ResponsiveImage } from "~/media/responsive-image";
import { services as serviceEntries } from "./generated/services";

/** One service the agency offers (the original specification's fields: label, image, description). */
export interface Service {
  id: string;
  label: string;
  /** URL of the service's illustration. */
  image: string;
  imageAlt: string;
  /** The widths and formats the build made of a raster illustration (an SVG has none). */
  imageSet?: ResponsiveImage;
  description: string;
  /** Three concrete things the client gets. */
  includes: readonly [string, string, string];
}

/** The services, from content/services/ (one file each, in their `order`). */
export const services: readonly Service[] = serviceEntries.map((entry) => ({
  id: entry.id,
  label: entry.label,
  image: entry.image.src,
  imageAlt: entry.image.alt,
  ...(entry.image.responsive ? { imageSet: entry.image.responsive } : {}),
  description: entry.description,
  includes: entry.includes,
}));
