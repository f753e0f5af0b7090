/**
 * Words the content build adds to rendered Markdown for assistive technology only (a screen
 * reader reads them; nothing shows them), in each language an article can be written in.
 */

/** A language a content page can be in (an article's `lang`). */
export type ContentLanguage = "en" | "hi";

/** The name of a code block, which scrolls sideways on a phone and so takes keyboard focus. */
export const codeBlockLabel: Record<ContentLanguage, string> = {
  en: "Code example",
  hi: "कोड का उदाहरण",
};
