/**
 * The pages that load and hydrate the app's JavaScript: only those with interactive parts. Every
 * other page sends no bundle (docs/decisions/038-pages-without-a-bundle.md), and
 * tests/browser/script-bundles.spec.ts fails when another page starts to send one. And how a
 * document shows that it sends it.
 */
export const BUNDLED_PAGES: readonly string[] = ["/"];

/** Whether the page at `path` (a page's URL, the not-found page's included) loads the bundle. */
export function pageSendsBundle(path: string): boolean {
  return BUNDLED_PAGES.includes(new URL(path, "http://localhost").pathname);
}

/** A reference to the app's JavaScript in a document: a module preload, an import, an inert one. */
const BUNDLE_REFERENCE = /\/build\/[^"'\s]+\.js\b|__remixContext/;

/** Whether a page's HTML sends the app's JavaScript. */
export function documentSendsBundle(html: string): boolean {
  return BUNDLE_REFERENCE.test(html);
}
