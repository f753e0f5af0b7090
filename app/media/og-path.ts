/**
 * Where a page's Open Graph image is served: one 1200 × 630 PNG per page, made at build time into
 * public/og/<kind>/<slug>.png by scripts/build-media.ts, so a route names its own image in its meta.
 */

/** What an Open Graph image belongs to: the home page, a policy page, or an entry of a content collection. */
export type OgKind = "home" | "policies" | (string & {});

/** Its size in pixels: what Facebook, LinkedIn and WhatsApp show full width. */
export const OG_IMAGE_SIZE = { width: 1200, height: 630 } as const;

const SAFE_SEGMENT = /^[a-z0-9][a-z0-9-]*$/;

/** The image's path under the site's origin, e.g. `/og/case-studies/pawpal.png`. */
export function ogImagePathOf(kind: OgKind, slug: string): string {
  for (const segment of [kind, slug]) {
    if (!SAFE_SEGMENT.test(segment)) {
      throw new Error(`ogImagePathOf: "${segment}" must be lower-case letters, digits and hyphens`);
    }
  }
  return `/og/${kind}/${slug}.png`;
}
