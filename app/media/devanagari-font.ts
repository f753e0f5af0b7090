/**
 * The Devanagari font's stylesheet, for the `links` of a route whose page has Hindi content
 * (`lang: hi`): `links: () => [...devanagariFontLinks]`. Only such pages load it; the font files
 * are the site's own (font-src 'self'), cut by the content build to the characters the Hindi
 * articles use (scripts/lib/content/fonts.ts).
 */
import regularUrl from "~/content/generated/fonts/noto-sans-devanagari-400.woff2";
import boldUrl from "~/content/generated/fonts/noto-sans-devanagari-700.woff2";
import stylesheet from "~/styles/devanagari.css";

/** Preloaded, so the `optional` faces are there for the first paint and nothing is swapped later. */
const preload = (href: string) =>
  ({ rel: "preload", href, as: "font", type: "font/woff2", crossOrigin: "anonymous" }) as const;

export const devanagariFontLinks = [
  preload(regularUrl),
  preload(boldUrl),
  { rel: "stylesheet", href: stylesheet },
] as const;
