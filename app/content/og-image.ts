/** Where a page's Open Graph image is: one function, so per-page images replace the site's in one place. */
import { seo } from "./seo";

export type OgImageKind = "home" | "case-study" | "insight" | "list";

/** The path of the Open Graph image of a page (for now the site's own, 1200 × 630, for every page). */
export function ogImagePathOf(_kind: OgImageKind, _slug?: string): string {
  return seo.ogImage.path;
}
