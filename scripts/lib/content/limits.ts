/**
 * How large a content file may be: the content build refuses anything larger with one line naming
 * the file, before a parser or sharp is given it (docs/content-editing.md, "What a content file may hold").
 */

const KB = 1024;
const MB = 1024 * KB;

/** A YAML or Markdown file, front matter and body together; checked before the file is read. */
export const MAX_TEXT_FILE_BYTES = 256 * KB;
/** A Markdown body (an article's or a case study's text). */
export const MAX_BODY_BYTES = 200 * KB;
/** An image file in content/images/. */
export const MAX_IMAGE_BYTES = 20 * MB;
/** An image's pixels, width × height as its header says: 40 megapixels (a 7300 × 5475 photo). */
export const MAX_IMAGE_PIXELS = 40_000_000;

/** `bytes` as an editor reads it beside a limit: `250 KB`, `21.4 MB`. */
export function sizeOf(bytes: number): string {
  return bytes >= MB ? `${Number((bytes / MB).toFixed(1))} MB` : `${Math.ceil(bytes / KB)} KB`;
}
