import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { enquirySchema, UNUSUAL_CHARACTERS } from "~/enquiry/schema.server";

const valid = {
  name: "Asha Rao",
  email: "asha@example.in",
  countryCode: "91",
  phoneNumber: "9876543210",
  message: "We need a booking app for our clinics.",
};

/** Parses like the action does: through Conform, which turns empty strings into undefined. */
function parse(overrides: Partial<Record<keyof typeof valid, string>> = {}, omit: string[] = []) {
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries({ ...valid, ...overrides })) {
    if (!omit.includes(name)) form.set(name, value);
  }
  return parseWithZod(form, { schema: enquirySchema });
}

function invalidFields(overrides: Partial<Record<keyof typeof valid, string>>, omit: string[] = []) {
  const submission = parse(overrides, omit);
  return submission.status === "success" ? [] : Object.keys(submission.error ?? {});
}

function fieldErrors(submission: ReturnType<typeof parse>): Record<string, string[] | null> {
  return submission.status === "error" ? (submission.error ?? {}) : {};
}

describe("enquiry schema", () => {
  it("accepts a complete enquiry and trims the name", () => {
    const submission = parse({ name: "  Asha Rao  " });
    expect(submission.status).toBe("success");
    if (submission.status === "success") expect(submission.value.name).toBe("Asha Rao");
  });

  it("requires a name that is not blank or whitespace only, up to 40 characters", () => {
    expect(invalidFields({}, ["name"])).toEqual(["name"]);
    expect(invalidFields({ name: "" })).toEqual(["name"]);
    expect(invalidFields({ name: "   \t " })).toEqual(["name"]);
    expect(invalidFields({ name: "a".repeat(40) })).toEqual([]);
    expect(invalidFields({ name: "a".repeat(41) })).toEqual(["name"]);
  });

  it("requires an e-mail with local part, @, domain, dot and a top-level part of 2+ letters, up to 40", () => {
    expect(invalidFields({ email: "a@b.co" })).toEqual([]);
    expect(invalidFields({ email: "first.last@mail.example.org" })).toEqual([]);
    expect(invalidFields({ email: "a@b.c" })).toEqual(["email"]);
    expect(invalidFields({ email: "a@b" })).toEqual(["email"]);
    expect(invalidFields({ email: "@b.co" })).toEqual(["email"]);
    expect(invalidFields({ email: "ab.co" })).toEqual(["email"]);
    expect(invalidFields({ email: "a b@c.co" })).toEqual(["email"]);
    expect(invalidFields({ email: "a@b.c0" })).toEqual(["email"]);
    expect(invalidFields({}, ["email"])).toEqual(["email"]);
    const local40 = `${"a".repeat(34)}@b.com`; // 40 characters
    expect(local40).toHaveLength(40);
    expect(invalidFields({ email: local40 })).toEqual([]);
    expect(invalidFields({ email: `a${local40}` })).toEqual(["email"]);
  });

  it("requires a country code of 1 to 3 digits", () => {
    expect(invalidFields({ countryCode: "1" })).toEqual([]);
    expect(invalidFields({ countryCode: "971" })).toEqual([]);
    expect(invalidFields({ countryCode: "1234" })).toEqual(["countryCode"]);
    expect(invalidFields({ countryCode: "abc" })).toEqual(["countryCode"]);
    expect(invalidFields({ countryCode: "+91" })).toEqual(["countryCode"]);
    expect(invalidFields({ countryCode: "" })).toEqual(["countryCode"]);
  });

  it("requires a phone number of 1 to 12 digits", () => {
    expect(invalidFields({ phoneNumber: "1".repeat(12) })).toEqual([]);
    expect(invalidFields({ phoneNumber: "1".repeat(13) })).toEqual(["phoneNumber"]);
    expect(invalidFields({ phoneNumber: "98765 43210" })).toEqual(["phoneNumber"]);
    expect(invalidFields({ phoneNumber: "98-76" })).toEqual(["phoneNumber"]);
    expect(invalidFields({}, ["phoneNumber"])).toEqual(["phoneNumber"]);
  });

  it("takes an optional message of up to 1500 characters", () => {
    expect(invalidFields({ message: "" })).toEqual([]);
    expect(invalidFields({}, ["message"])).toEqual([]);
    expect(invalidFields({ message: "m".repeat(1500) })).toEqual([]);
    expect(invalidFields({ message: "m".repeat(1501) })).toEqual(["message"]);
    expect(parse({ message: "" })).toMatchObject({ status: "success", value: { message: "" } });
  });

  it("flags every invalid field at once", () => {
    expect(
      invalidFields({ name: " ", email: "x", countryCode: "abc", phoneNumber: "1".repeat(13) }).sort(),
    ).toEqual(["countryCode", "email", "name", "phoneNumber"]);
  });

  const unusual: [string, string][] = [
    ["CR", "\r"],
    ["LF", "\n"],
    ["NUL", "\u0000"],
    ["ESC", "\u001B"],
    ["tab", "\t"],
    ["DEL", "\u007F"],
    ["NEL (U+0085)", "\u0085"],
    ["C1 CSI (U+009B)", "\u009B"],
    ["line separator", "\u2028"],
    ["paragraph separator", "\u2029"],
    ["left-to-right mark", "\u200E"],
    ["right-to-left mark", "\u200F"],
    ["Arabic letter mark", "\u061C"],
    ["right-to-left override", "\u202E"],
    ["left-to-right embedding", "\u202A"],
    ["first strong isolate", "\u2068"],
    ["pop directional isolate", "\u2069"],
    ["byte-order mark", "\uFEFF"],
  ];

  it.each(unusual)("refuses %s inside every single-line field, with its own hint", (_label, character) => {
    for (const [field, value] of [
      ["name", `Asha${character}Rao`],
      ["email", `asha${character}@example.in`],
      ["countryCode", `9${character}1`],
      ["phoneNumber", `98765${character}43210`],
    ] as const) {
      const submission = parse({ [field]: value });
      expect(submission.status, field).toBe("error");
      expect(Object.keys(fieldErrors(submission))).toEqual([field]);
      if (field === "name") expect(fieldErrors(submission).name).toEqual([UNUSUAL_CHARACTERS.singleLine]);
    }
    // At the edges too: trimming must not hide them.
    expect(invalidFields({ name: `Asha Rao${character}` })).toEqual(["name"]);
  });

  it.each(unusual.filter(([label]) => label !== "LF"))(
    "keeps line breaks in the message but refuses %s",
    (_label, character) => {
      expect(invalidFields({ message: "Line one\nLine two\n\nLine four" })).toEqual([]);
      const submission = parse({ message: `Line one\nLine${character} two` });
      expect(submission.status).toBe("error");
      expect(fieldErrors(submission).message).toEqual([UNUSUAL_CHARACTERS.message]);
    },
  );

  it("keeps names in Indic scripts, with their zero-width joiners, and accents", () => {
    for (const name of ["ശ്രീ\u200Dലക്ഷ്മി", "क्\u200Cष", "Zoë Núñez", "O'Brien-Smith"]) {
      expect(invalidFields({ name }), name).toEqual([]);
    }
  });

  it("refuses e-mail addresses with spaces or characters that quote or separate addresses", () => {
    for (const character of [" ", "<", ">", '"', ",", ";", ":", "(", ")", "[", "]", "\\"]) {
      expect(invalidFields({ email: `as${character}ha@example.in` }), JSON.stringify(character)).toEqual([
        "email",
      ]);
      expect(invalidFields({ email: `asha@exa${character}mple.in` }), JSON.stringify(character)).toEqual([
        "email",
      ]);
    }
    expect(invalidFields({ email: "Asha <asha@example.in>" })).toEqual(["email"]);
    expect(invalidFields({ email: "asha@example.in, boss@example.in" })).toEqual(["email"]);
    expect(invalidFields({ email: "asha.rao+site@mail.example.co.in" })).toEqual([]);
  });

  describe("text that looks like what it is", () => {
    const names = [
      "अनन्या शर्मा", // Hindi
      "श्रद्धा कर्‍हाडे", // Marathi: र्‍ (ra, virama, ZWJ) in Karhade
      "கார்த்திகேயன் சுப்பிரமணியம்", // Tamil
      "ശ്രീ\u200Dലക്ഷ്മി നായർ", // Malayalam, with a ZWJ after a vowel sign
      "Zoë 🏳️‍🌈",
      "Rhys 🏴󠁧󠁢󠁷󠁬󠁳󠁿", // Wales
    ];
    it.each(names)("keeps the name %s", (name) => {
      expect(invalidFields({ name })).toEqual([]);
    });

    it("keeps messages in any script, with emoji and the flags of England, Scotland and Wales", () => {
      const message = "नमस्ते, हमें एक ऐप चाहिए।\nவணக்கம்! ഞങ്ങൾക്ക് ഒരു വെബ്സൈറ്റ് വേണം.\nकर्‍हाड 👨‍👩‍👧 🏴󠁧󠁢󠁥󠁮󠁧󠁿 🏴󠁧󠁢󠁳󠁣󠁴󠁿 🏴󠁧󠁢󠁷󠁬󠁳󠁿 🏳️‍🌈 👍🏽";
      expect(invalidFields({ message })).toEqual([]);
    });

    const invisible: [string, string][] = [
      ["zero width space", "\u200B"],
      ["word joiner", "\u2060"],
      ["invisible separator", "\u2063"],
      ["invisible plus", "\u2064"],
      ["Hangul filler", "\u3164"],
      ["Hangul choseong filler", "\u115F"],
      ["Hangul jungseong filler", "\u1160"],
      ["halfwidth Hangul filler", "\uFFA0"],
      ["soft hyphen", "\u00AD"],
      ["combining grapheme joiner", "\u034F"],
      ["Mongolian vowel separator", "\u180E"],
      ["inhibit symmetric swapping", "\u206A"],
      ["nominal digit shapes", "\u206F"],
      ["Khmer inherent vowel", "\u17B4"],
    ];
    it.each(invisible)("refuses a %s in single-line fields", (_label, character) => {
      const submission = parse({ name: `Asha${character}Rao` });
      expect(fieldErrors(submission).name).toEqual([UNUSUAL_CHARACTERS.singleLine]);
      expect(invalidFields({ name: character.repeat(5) })).toEqual(["name"]);
      expect(invalidFields({ email: `asha${character}@example.in` })).toEqual(["email"]);
    });

    it("refuses every default-ignorable or format character in an e-mail address, with its own hint", () => {
      for (const character of [
        "\u00AD",
        "\u034F",
        "\u180E",
        "\u206A",
        "\u200D",
        "\u200C",
        "\uFE0F",
        "\u180B",
      ]) {
        const submission = parse({ email: `spam${character}@example.com` });
        expect(Object.keys(fieldErrors(submission)), JSON.stringify(character)).toEqual(["email"]);
        expect(fieldErrors(submission).email).toContain(UNUSUAL_CHARACTERS.address);
      }
      expect(invalidFields({ email: "asha.rao+site@mail.example.co.in" })).toEqual([]);
    });

    it("refuses Unicode tag characters outside an emoji flag, in every field", () => {
      const hidden = [..."ignore"]
        .map((letter) => String.fromCodePoint(0xe0000 + letter.charCodeAt(0)))
        .join("");
      const submission = parse({ name: `Asha${hidden}`, message: `Hello${hidden}\u{E007F}` });
      expect(fieldErrors(submission)).toEqual({
        name: [UNUSUAL_CHARACTERS.hidden],
        message: [UNUSUAL_CHARACTERS.hidden],
      });
      // A flag's tags followed by more tags, or tags after another emoji, are hidden text too.
      expect(invalidFields({ message: `🏴󠁧󠁢󠁷󠁬󠁳󠁿${hidden}` })).toEqual(["message"]);
      expect(invalidFields({ message: `👍${hidden}\u{E007F}` })).toEqual(["message"]);
    });

    it("refuses a ZWJ or ZWNJ alone, first, last, or with nothing to join", () => {
      for (const joiner of ["\u200C", "\u200D"]) {
        for (const name of [
          joiner,
          `${joiner}Asha`,
          `Asha${joiner}`,
          `Asha ${joiner}Rao`,
          `Asha${joiner} Rao`,
          `12${joiner}3`,
        ]) {
          const submission = parse({ name });
          expect(fieldErrors(submission).name, JSON.stringify(name)).toEqual([UNUSUAL_CHARACTERS.hidden]);
        }
        expect(invalidFields({ message: `Hello${joiner}` })).toEqual(["message"]);
        expect(invalidFields({ message: `${joiner}\nHello` })).toEqual(["message"]);
      }
    });
  });
});
