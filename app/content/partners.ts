/** The partners of 'Trusted By': their names, links and logos (edited in content/partners.yml). */
import type { ResponsiveImage } from "~/media/responsive-image";
import { partners as partnerEntries } from "./generated/partners";

/**
 * A partner logo in 'Trusted By' (the original specification's fields: id, url, name). Brands are
 * fictional (docs/decisions/004-content-departures.md).
 */
export interface Partner {
  id: string;
  /** URL of the self-hosted logo image. */
  url: string;
  /** The widths and formats the build made of a raster logo (an SVG has none). */
  logoSet?: ResponsiveImage;
  name: string;
}

/** Logo images are drawn at this size (width × height). */
export const partnerLogoSize = { width: 200, height: 64 } as const;

/** The partners, from content/partners.yml, in its order. */
export const partners: readonly Partner[] = partnerEntries.map((entry) => ({
  id: entry.id,
  url: entry.logo.src,
  ...(entry.logo.responsive ? { logoSet: entry.logo.responsive } : {}),
  name: entry.name,
}));
