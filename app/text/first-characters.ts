/** Cutting text to a number of characters (code points), never inside a surrogate pair. */

/**
 * The first `count` characters of `text`, a character being a code point (a string's iterator
 * yields them whole): a cut by UTF-16 units (`slice`) can leave half of a pair (`𝐀`, an emoji),
 * which `encodeURIComponent` throws on.
 */
export const firstCharacters = (text: string, count: number): string => [...text].slice(0, count).join("");
