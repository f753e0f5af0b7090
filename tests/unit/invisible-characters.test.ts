import { describe, expect, it } from "vitest";
import { showInvisible } from "~/text/invisible-characters";

describe("showInvisible (npm run leads)", () => {
  it("shows controls, bidi, zero widths, fillers and tags as escapes", () => {
    expect(showInvisible("EmailJS \u001b[2J\u001b[Hanswered")).toBe("EmailJS \\u001B[2J\\u001B[Hanswered");
    expect(showInvisible("Asha\u202Eoa R")).toBe("Asha\\u202Eoa R");
    expect(showInvisible("Ash\u200Ba\u3164 \u2066x\u2069")).toBe("Ash\\u200Ba\\u3164 \\u2066x\\u2069");
    expect(showInvisible("Hi\u{E0041}\u{E0042}")).toBe("Hi\\u{E0041}\\u{E0042}");
    expect(showInvisible("line\nnext\tcell\r")).toBe("line\\nnext\\tcell\\r");
    expect(showInvisible("a\u00A0b\u2800")).toBe("a\\u00A0b\\u2800");
    expect(showInvisible("\u200Dalone")).toBe("\\u200Dalone");
  });

  it("shows every default-ignorable code point as an escape: U+034F, soft hyphen, U+180E, U+206A…", () => {
    expect(showInvisible("Ash\u034Fa")).toBe("Ash\\u034Fa");
    expect(showInvisible("sp\u00ADam@e\u180Example\u206A.com")).toBe("sp\\u00ADam@e\\u180Example\\u206A.com");
    for (let code = 0; code <= 0x10ffff; code += 1) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const point = String.fromCodePoint(code);
      if (!/\p{Default_Ignorable_Code_Point}/u.test(point)) continue;
      // Between two full stops: nothing for a joiner or a variation selector to join.
      expect(showInvisible(`.${point}.`), code.toString(16)).not.toContain(point);
    }
  });

  it("keeps every script, joiners where they join, emoji and the flags of England, Scotland and Wales", () => {
    for (const text of [
      "श्रद्धा कर्‍हाडे",
      "ശ്രീ\u200Dലക്ഷ്മി",
      "கார்த்திகேயன்",
      "🏳️‍🌈 👨‍👩‍👧 🏴󠁧󠁢󠁥󠁮󠁧󠁿 🏴󠁧󠁢󠁳󠁣󠁴󠁿 🏴󠁧󠁢󠁷󠁬󠁳󠁿",
      "Zoë O'Brien, 15% off",
    ]) {
      expect(showInvisible(text)).toBe(text);
    }
  });

  it("in JSON, escapes parse back to the same text", () => {
    const value = { name: "Asha\u202E\u{E0041}\u0085 🏴󠁧󠁢󠁷󠁬󠁳󠁿", error: "x\u001b[2J" };
    const line = showInvisible(JSON.stringify(value), "json");
    expect(line).toBe('{"name":"Asha\\u202E\\uDB40\\uDC41\\u0085 🏴󠁧󠁢󠁷󠁬󠁳󠁿","error":"x\\u001b[2J"}');
    expect(JSON.parse(line)).toEqual(value);
  });
});
