/**
 * The Devanagari font's stylesheet, for the `links` of a route whose page has Hindi content
 * (`lang: hi`): `links: () => [...devanagariFontLinks]`. Only such pages load it; the font files
 * are the site's own (font-src 'self').
 */
import regularUrl from "@fontsource/noto-sans-devanagari/files/noto-sans-devanagari-devanagari-400-normal.woff2";
import boldUrl from "@fontsource/noto-sans-devanagari/files/noto-sans-devanagari-devanagari-700-normal.woff2";
import stylesheet from "~/styles/devanagari.css";

/** Preloaded, so the `optional` faces are there for the first paint and nothing is swapped later. */
const preload = (href: string) =>
  ({ rel: "preload", href, as: "font", type: "font/woff2", crossOrigin: "anonymous" }) as const;

export const devanagariFontLinks = [
  preload(regularUrl),
  preload(boldUrl),
  { rel: "stylesheet", href: stylesheet },
] as const;
