/**
 * What a case study's or an article's page is made of, from its file's fields and its body as
 * HTML: one shaping for the content build's modules and /admin's previews, so a preview is given
 * what the page is given.
 */

interface PageFields {
  body?: unknown;
  seo?: object | undefined;
}

/** A page of a folder collection: its slug, its fields but the body, its SEO overrides (or none) and its body's HTML. */
export function pageEntryOf<Data extends PageFields>(slug: string, data: Data, html: string) {
  const { body: _body, seo, ...fields } = data;
  return { slug, ...fields, seo: seo ?? {}, html };
}

/** An article: a page with the words of its body and its reading time, at 200 words a minute and at least 1. */
export function articleEntryOf<Data extends PageFields>(
  slug: string,
  data: Data,
  html: string,
  words: number,
) {
  return { ...pageEntryOf(slug, data, html), words, readingMinutes: Math.max(1, Math.round(words / 200)) };
}
