/**
 * Control characters in a content file's text: C0 controls but tab, line feed and carriage
 * return, DEL and the C1 controls. None has a place in a page, and XML (the feed) cannot carry
 * them at all, so the content build refuses them in every field and body.
 */

/** `\p{Cc}` is exactly C0, DEL and C1. */
const CONTROL = /(?![\t\n\r])\p{Cc}/u;

export interface ControlCharacter {
  /** The field's path in the file's data (`title`, `results.0.label`, `body`). */
  field: string;
  /** The character's code point, written `U+0001`. */
  codePoint: string;
  /** The line within the text, from 1. */
  line: number;
}

/** The first control character of each text anywhere in `data`. */
export function controlCharactersIn(data: unknown, field = ""): ControlCharacter[] {
  if (typeof data === "string") {
    const match = CONTROL.exec(data);
    if (!match) return [];
    const codePoint = `U+${(match[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
    return [{ field, codePoint, line: data.slice(0, match.index).split("\n").length }];
  }
  const children = Array.isArray(data)
    ? data.entries()
    : typeof data === "object" && data !== null
      ? Object.entries(data)
      : [];
  return [...children].flatMap(([key, value]) =>
    controlCharactersIn(value, field === "" ? String(key) : `${field}.${key}`),
  );
}
