/**
 * Marks a field whose words the product specification quotes: its /admin hint says so, and the
 * shipped-content test (tests/content/specification.test.ts) holds content/ to those words.
 */

/**
 * What the specification fixes of a field: its text, its list in order, names that must each be
 * among the values, phrases it must say, or words it must not (where the product departs from the
 * specification on purpose: docs/decisions/004-content-departures.md).
 */
export type Quoted =
  | { kind: "text"; text: string }
  | { kind: "list"; words: readonly string[] }
  | { kind: "among"; names: readonly string[] }
  | { kind: "contains"; phrases: readonly string[] }
  | { kind: "avoids"; words: readonly string[]; why: string };

/** The metadata a quoted field carries: the hint the editor reads, and the words for the test. */
export interface QuotedMeta {
  description: string;
  quoted: Quoted;
}

const words = (texts: readonly string[]) => texts.map((text) => `“${text}”`).join(", ");
const unlessChanged = "change it only when the specification changes too";

/** The field is exactly `text`. */
export function quoted(text: string): QuotedMeta {
  return {
    description: `The product specification quotes this text: “${text}”; ${unlessChanged}.`,
    quoted: { kind: "text", text },
  };
}

/** The list is exactly `list`, in this order. */
quoted.list = (list: readonly string[]): QuotedMeta => ({
  description: `The product specification quotes these words, in this order: ${words(list)}; ${unlessChanged}.`,
  quoted: { kind: "list", words: list },
});

/** Each of `names` is the value of this field in one item (or one file) of the list. */
quoted.among = (names: readonly string[]): QuotedMeta => ({
  description: `The product specification names ${words(names)}: keep each of them (the order is yours); ${unlessChanged}.`,
  quoted: { kind: "among", names },
});

/** The text says each of `phrases` somewhere. */
quoted.contains = (phrases: readonly string[]): QuotedMeta => ({
  description: `The product specification requires this text to say ${words(phrases)}; keep ${phrases.length === 1 ? "it" : "them"}.`,
  quoted: { kind: "contains", phrases },
});

/** The text never says any of `words` (compared without case), because `why`. */
quoted.avoids = (words: readonly string[], why: string): QuotedMeta => ({
  description: `Never say ${words.map((word) => `“${word}”`).join(" or ")}: ${why}.`,
  quoted: { kind: "avoids", words, why },
});
