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
