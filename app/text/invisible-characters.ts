/**
 * Characters that do not look like what they are: the rules of what a visitor may type
 * (app/enquiry/schema.server.ts) and of how the operator's tools show text (npm run leads).
 */

const ZWNJ = 0x200c;
const ZWJ = 0x200d;

/**
 * Invisible format and filler characters no single-line field needs (they hide or fake a name):
 * zero widths, the soft hyphen, the combining grapheme joiner, the Mongolian vowel separator,
 * the deprecated format controls U+206A–U+206F, the Khmer inherent vowels and the Hangul fillers.
 */
const INVISIBLE_IN_A_LINE =
  /\u034F|[\u00AD\u17B4\u17B5\u180E\u200B\u200E\u200F\u2060-\u2064\u206A-\u206F\uFEFF\u3164\u115F\u1160\uFFA0]/u;

/** What an e-mail address never holds: any default-ignorable or format character, joiners included. */
const INVISIBLE_IN_AN_ADDRESS = /[\p{Default_Ignorable_Code_Point}\p{Cf}]/u;

/** Unicode tag characters (they can carry hidden text)… */
const TAG = /[\u{E0000}-\u{E007F}]/u;
/** …allowed only in an emoji tag sequence: a black flag, tags, a cancel tag (England, Scotland, Wales). */
const EMOJI_TAG_SEQUENCE = /\u{1F3F4}[\u{E0020}-\u{E007E}]+\u{E007F}/gu;

/** What a joiner may stand between: letters, marks (a virama, a variation selector) and emoji. */
const JOINABLE = /^[\p{L}\p{M}\p{Extended_Pictographic}\p{Emoji_Modifier}\p{Regional_Indicator}]$/u;

/** Whether the ZWJ or ZWNJ at code point `index` of `points` stands where a script or emoji needs it. */
function joinerFits(points: string[], index: number): boolean {
  const before = points[index - 1];
  const after = points[index + 1];
  return before !== undefined && after !== undefined && JOINABLE.test(before) && JOINABLE.test(after);
}

/** True when every ZWJ and ZWNJ of `text` joins something (never alone, first or last). */
export function joinersFit(text: string): boolean {
  const points = [...text];
  return points.every((point, index) => {
    const code = point.codePointAt(0);
    return (code !== ZWJ && code !== ZWNJ) || joinerFits(points, index);
  });
}

/** True when `text` holds tag characters outside an emoji tag sequence. */
export function hasStrayTags(text: string): boolean {
  return TAG.test(text.replace(EMOJI_TAG_SEQUENCE, ""));
}

/** True when `text` holds an invisible format or filler character a single-line field refuses. */
export function hasInvisibleInALine(text: string): boolean {
  return INVISIBLE_IN_A_LINE.test(text);
}

/** True when `text` holds a character an e-mail address refuses (soft hyphen, U+034F, U+180E…). */
export function hasInvisibleInAnAddress(text: string): boolean {
  return INVISIBLE_IN_AN_ADDRESS.test(text);
}

/**
 * Code points shown as escapes: controls, format characters (bidi marks and overrides, zero
 * widths, tags), every default-ignorable code point (the soft hyphen, U+034F, variation
 * selectors, fillers), separators other than the space, private use, unassigned and lone
 * surrogates.
 */
const UNSEEN =
  /^[\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\p{Zl}\p{Zp}\p{Co}\p{Cn}\p{Cs}\u2800]$|^(?!\u0020)\p{Zs}$/u;

/** A variation selector shows as itself only right after the emoji it presents (❤️, 🏳️). */
const VARIATION_SELECTOR = /^[\uFE00-\uFE0F]$/u;
const EMOJI = /^\p{Emoji}$/u;

const SHORT: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

function escapeUnit(code: number): string {
  return `\\u${code.toString(16).toUpperCase().padStart(4, "0")}`;
}

/**
 * `text` with every character that cannot be seen (or that changes how the rest reads) written
 * as a visible escape (`\u202E`, `\u{E0041}`, `\n`): an operator's table cannot be cleared,
 * reordered or forged by what a visitor or EmailJS wrote. Joiners where a script or an emoji
 * needs them, an emoji's variation selector, and the flags of England, Scotland and Wales,
 * stay as they are.
 * `json`: escapes in JSON's own syntax (`\u202E`, surrogate pairs), for text already in JSON.
 */
export function showInvisible(text: string, style: "text" | "json" = "text"): string {
  const kept = new Set<number>();
  for (const match of text.matchAll(EMOJI_TAG_SEQUENCE)) {
    const start = [...text.slice(0, match.index)].length;
    for (let offset = 0; offset < [...match[0]].length; offset += 1) kept.add(start + offset);
  }
  const points = [...text];
  return points
    .map((point, index) => {
      const code = point.codePointAt(0) ?? 0;
      if (kept.has(index) || !UNSEEN.test(point)) return point;
      if ((code === ZWJ || code === ZWNJ) && joinerFits(points, index)) return point;
      if (VARIATION_SELECTOR.test(point) && EMOJI.test(points[index - 1] ?? "")) return point;
      if (style === "text")
        return SHORT[point] ?? (code > 0xffff ? `\\u{${code.toString(16).toUpperCase()}}` : escapeUnit(code));
      return Array.from({ length: point.length }, (_, unit) => escapeUnit(point.charCodeAt(unit))).join("");
    })
    .join("");
}
