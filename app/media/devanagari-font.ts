/**
 * The Devanagari font's stylesheet, for the `links` of a route whose page has Hindi content
 * (`lang: hi`): `links: () => [...devanagariFontLinks]`. Only such pages load it; the font files
 * are the site's own (font-src 'self').
 */
import regularUrl from "@fontsource/noto-sans-devanagari/files/noto-sans-devanagari-devanagari-400-normal.woff2";
import stylesheet from "~/styles/devanagari.css";

/**
 * The regular face is preloaded, so the body text (a Hindi article's largest paint) has its
 * `optional` face for the first paint and nothing is swapped later. The bold face (headings) is
 * not: preloaded too, its 54 KB shared a slow connection with the stylesheet and held the
 * largest paint back (docs/performance.md, "Pages without a bundle"); it comes with the
 * stylesheet, in time for a fast connection, and where it is late the headings keep the device's
 * own Devanagari font for that visit.
 */
export const devanagariFontLinks = [
  { rel: "preload", href: regularUrl, as: "font", type: "font/woff2", crossOrigin: "anonymous" },
  { rel: "stylesheet", href: stylesheet },
] as const;
