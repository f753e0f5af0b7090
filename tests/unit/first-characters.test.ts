import { describe, expect, it } from "vitest";
import { firstCharacters } from "~/text/first-characters";

describe("firstCharacters", () => {
  it("counts code points: a surrogate pair is one character, kept whole or left out", () => {
    expect(firstCharacters(`${"a".repeat(39)}𝐀`, 40)).toBe(`${"a".repeat(39)}𝐀`);
    expect(firstCharacters(`${"a".repeat(39)}𝐀`, 39)).toBe("a".repeat(39));
    expect(firstCharacters("😀😀😀", 2)).toBe("😀😀");
    expect(firstCharacters("दिवाली", 3)).toBe("दिव");
  });

  it("keeps a shorter text as it is, and cuts to nothing at 0", () => {
    expect(firstCharacters("spring", 40)).toBe("spring");
    expect(firstCharacters("", 40)).toBe("");
    expect(firstCharacters("spring", 0)).toBe("");
  });

  it("never ends on half of a pair, whatever the count", () => {
    const text = "a𝐀b😀c𝐁";
    for (let count = 0; count <= 8; count += 1) {
      expect(() => encodeURIComponent(firstCharacters(text, count)), String(count)).not.toThrow();
    }
  });
});
