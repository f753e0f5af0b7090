/**
 * The words of the lists, the case studies, the articles and the error pages (content/pages.yml),
 * with their placeholders filled.
 */
import { pageWords } from "./generated/pages";
import { site } from "./site";

export { pageWords };

/** `text` with each `{key}` of `values` replaced, and `{name}` with the agency's name. */
export function fillWords(text: string, values: Readonly<Record<string, string | number>> = {}): string {
  return text.replace(/\{([a-z]+)\}/g, (placeholder, key: string) => {
    if (key === "name") return site.name;
    const value = values[key];
    return value === undefined ? placeholder : String(value);
  });
}

/** A page's title: its own words, then the agency's name. */
export const titleOf = (words: string) => `${words} — ${site.name}`;

/** The trail's first crumb, to the home page. */
export const homeCrumb = () => ({ name: pageWords.home, path: "/" });
