/**
 * The Devanagari font's stylesheet, for the `links` of a route whose page has Hindi content
 * (`lang: hi`): `links: () => [...devanagariFontLinks]`. Only such pages load it; the font files
 * are the site's own (font-src 'self').
 */
import stylesheet from "~/styles/devanagari.css";

export const devanagariFontLinks = [{ rel: "stylesheet", href: stylesheet }] as const;
