import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { privacyFactsFrom } from "~/content/privacy-facts.server";
import { parseEnv } from "~/env.server";
import {
  PRIVACY_NOTICE_ITEMS,
  PRIVACY_NOTICE_VERSION,
  type PrivacyNoticeText,
  privacyNoticeTexts,
} from "~/privacy-notice";
import { privacyNoticeEnglish } from "~/privacy-notice/en";
import { PRIVACY_NOTICE_FIELDS, privacyNoticeHashField } from "~/privacy-notice/fields";
import { privacyNoticeHindi } from "~/privacy-notice/hi";
import { PrivacyNoticeFor } from "~/privacy-notice/notice.server";
import { postedPrivacyNoticeLanguage, readPrivacyNotice } from "~/privacy-notice/posted.server";
import {
  currentVersionIn,
  editedPublishedTexts,
  publishedPrivacyNotice as publishedIn,
  publishedVersions,
  readPublished,
} from "~/privacy-notice/published.server";
import {
  type PrivacyNoticeRendering,
  privacyNoticeRenderings,
  privacyNoticeSha256,
} from "~/privacy-notice/rendering.server";
import {
  fillPrivacyNotice,
  type PrivacyNoticeFacts,
  privacyNoticeBlocks,
  privacyNoticePlainText,
  privacyNoticeTemplate,
} from "~/privacy-notice/text";

/** What `npm run notice:publish` wrote: every published version's text and SHA-256. */
const archive = readPublished();
const publishedPrivacyNotice = (version: string, language: string) => publishedIn(archive, version, language);

const facts: PrivacyNoticeFacts = { retentionDays: 45, contact: { email: "privacy@nirmaan.digital" } };

const template = privacyNoticeTemplate;

/** The languages whose text differs from what the current version published. */
function changedWithoutANewVersion(texts: readonly PrivacyNoticeText[]): string[] {
  return texts
    .filter(
      (text) =>
        privacyNoticeSha256(template(text)) !== archive[PRIVACY_NOTICE_VERSION]?.[text.language]?.sha256,
    )
    .map((text) => text.language);
}

describe("the privacy notice's languages", () => {
  it("holds the same items in English and in Hindi, each with a label and a text", () => {
    expect(Object.keys(privacyNoticeHindi.items).sort()).toEqual(
      Object.keys(privacyNoticeEnglish.items).sort(),
    );
    expect(Object.keys(privacyNoticeEnglish.items).sort()).toEqual([...PRIVACY_NOTICE_ITEMS].sort());
    for (const text of privacyNoticeTexts) {
      for (const item of Object.values(text.items)) {
        expect(item.label.trim()).not.toBe("");
        expect(item.text.trim().length, `${text.language}: ${item.label}`).toBeGreaterThan(20);
      }
    }
  });

  it("shows English first, then Hindi, each under its own language code", () => {
    expect(privacyNoticeTexts.map((text) => text.language)).toEqual(["en", "hi"]);
    expect(privacyNoticeHindi.languageName).toBe("हिन्दी");
  });

  it("writes the Hindi notice in Devanagari, apart from names and the Board's official English name", () => {
    const words = template(privacyNoticeHindi)
      .replace(/\{[a-zA-Z]+\}|Nirmaan Digital|EmailJS|CRM|Data Protection Board of India/g, "")
      .match(/\p{L}+/gu);
    expect(words?.length).toBeGreaterThan(100);
    expect(words?.filter((word) => !/^\p{Script=Devanagari}+$/u.test(word))).toEqual([]);
  });

  it("says in every language how long a lead is kept and who to write to, and links to the withdrawal page, both e-mails and the policy", () => {
    for (const text of privacyNoticeTexts) {
      const words = [text.lead, text.policy, ...Object.values(text.items).map((item) => item.text)].join(
        "\n",
      );
      expect(text.items.retention.text, text.language).toContain("{retentionDays}");
      expect(text.items.rights.text, text.language).toContain("{privacyContact}");
      expect(text.items.complaint.text, text.language).toContain("Data Protection Board of India");
      for (const target of ["withdraw", "erase", "correct"])
        expect(text.items.rights.text).toContain(`](${target})`);
      expect(text.policy).toContain("](policy)");
      expect(words).not.toMatch(/\{(?!retentionDays\}|privacyContact\})[^}]*\}/);
    }
  });
});

describe("the privacy notice's versions", () => {
  it("keeps every published version's text, unchanged: each still hashes to the SHA-256 published with it", () => {
    expect(publishedVersions(archive)).toContain("2026-11-26");
    expect(editedPublishedTexts(archive)).toEqual([]);
    const edited = structuredClone(archive);
    edited["2026-11-26"]?.hi?.text.splice(2, 1);
    expect(editedPublishedTexts(edited)).toEqual(["2026-11-26 hi"]);
  });

  it("shows the latest published version, in every language it was published in", () => {
    expect(publishedVersions(archive).at(-1)).toBe(PRIVACY_NOTICE_VERSION);
    expect(currentVersionIn()).toBe(PRIVACY_NOTICE_VERSION);
    expect(Object.keys(archive[PRIVACY_NOTICE_VERSION] ?? {})).toEqual(
      privacyNoticeTexts.map((text) => text.language),
    );
  });

  it("fails when a text changes and the version does not", () => {
    expect(
      changedWithoutANewVersion(privacyNoticeTexts),
      "a privacy notice text changed without a new version: run npm run notice:publish",
    ).toEqual([]);
    for (const text of privacyNoticeTexts) {
      expect(template(text)).toBe(publishedPrivacyNotice(PRIVACY_NOTICE_VERSION, text.language));
    }
    const edited = {
      ...privacyNoticeHindi,
      items: { ...privacyNoticeHindi.items, purpose: { label: "किसलिए", text: "जवाब देने के लिए।" } },
    };
    expect(changedWithoutANewVersion([privacyNoticeEnglish, edited])).toEqual(["hi"]);
  });

  it("renders the configuration into the text the same way it fills a published text", () => {
    for (const text of privacyNoticeTexts) {
      const rendered = privacyNoticePlainText(privacyNoticeBlocks(text, facts));
      expect(rendered).toBe(fillPrivacyNotice(template(text), facts));
      expect(rendered).toContain("45");
      expect(rendered).toContain("privacy@nirmaan.digital");
      expect(rendered).not.toMatch(/\{|\]\(/);
    }
  });
});

/** The text of one language's block in the rendered notice: one line per heading, paragraph or item. */
function shownText(html: string, language: string): string {
  const start = html.indexOf(`<div lang="${language}" class="privacy-notice-text`);
  const end = html.indexOf("</div>", start);
  return html
    .slice(start, end)
    .replace(/<\/(h3|p|li)>/g, "\n")
    .replace(/<[^>]+>/g, "")
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&")
    .trim();
}

describe("the privacy notice in the form", () => {
  const html = renderToStaticMarkup(createElement(PrivacyNoticeFor, { facts }));

  it("shows exactly the canonical text it is hashed by, in each language", () => {
    for (const text of privacyNoticeTexts) {
      const canonical = fillPrivacyNotice(
        publishedPrivacyNotice(PRIVACY_NOTICE_VERSION, text.language) ?? "",
        facts,
      );
      expect(shownText(html, text.language)).toBe(canonical);
    }
  });

  it("posts the language shown (a radio button, English checked), the version and each text's SHA-256 (hidden fields)", () => {
    const inputs = html.match(/<input [^>]*>/g) ?? [];
    const hashOf = (language: string) => privacyNoticeSha256(shownText(html, language));
    expect(inputs).toEqual([
      expect.stringMatching(
        /^(?=.*type="radio")(?=.*name="privacy_notice_language")(?=.*value="en")(?=.*checked="")/,
      ),
      expect.stringMatching(
        /^(?=.*type="radio")(?=.*name="privacy_notice_language")(?=.*value="hi")(?!.*checked)/,
      ),
      `<input type="hidden" name="${PRIVACY_NOTICE_FIELDS.version}" value="${PRIVACY_NOTICE_VERSION}"/>`,
      `<input type="hidden" name="privacy_notice_sha256_en" value="${hashOf("en")}"/>`,
      `<input type="hidden" name="privacy_notice_sha256_hi" value="${hashOf("hi")}"/>`,
    ]);
    expect(PRIVACY_NOTICE_FIELDS.language).toBe("privacy_notice_language");
    expect(html).toContain('<label for="privacy-notice-hi" lang="hi"');
  });

  it("posts the hashes of the texts a server with those settings records, and of no other", () => {
    const other = renderToStaticMarkup(
      createElement(PrivacyNoticeFor, { facts: { retentionDays: 30, contact: { email: "dpo@example.in" } } }),
    );
    const posted = (markup: string) =>
      [...markup.matchAll(/name="privacy_notice_sha256_(\w+)" value="(\w+)"/g)].map(
        ([, language, sha256]) => ({
          language,
          sha256,
        }),
      );
    const recorded = (given: PrivacyNoticeFacts) =>
      privacyNoticeRenderings(given).map(({ language, sha256 }) => ({ language, sha256 }));
    expect(posted(html)).toEqual(recorded(facts));
    expect(posted(other)).toEqual(recorded({ retentionDays: 30, contact: { email: "dpo@example.in" } }));
    expect(posted(other).map(({ sha256 }) => sha256)).not.toContain(posted(html)[0]?.sha256);
  });

  it("checks the language it is given (a refused enquiry's), and English for any other", () => {
    const checked = (language?: string) =>
      (
        renderToStaticMarkup(createElement(PrivacyNoticeFor, { facts, language })).match(/<input [^>]*>/g) ??
        []
      )
        .filter((input) => input.includes('checked=""'))
        .map((input) => /value="(\w+)"/.exec(input)?.[1]);
    expect(checked("hi")).toEqual(["hi"]);
    expect(checked("en")).toEqual(["en"]);
    expect(checked(undefined)).toEqual(["en"]);
    expect(checked("ta")).toEqual(["en"]);
    expect(checked("__proto__")).toEqual(["en"]);
  });

  it("opens an e-mail to the privacy contact with the request written, in the notice's language", () => {
    for (const text of privacyNoticeTexts) {
      const block = html.slice(html.indexOf(`<div lang="${text.language}"`));
      for (const request of [text.requests.erase, text.requests.correct]) {
        const href = `mailto:privacy@nirmaan.digital?subject=${encodeURIComponent(request.subject)}&amp;body=`;
        expect(block).toContain(href);
      }
      const mailto = /href="(mailto:[^"]+)"/.exec(block)?.[1]?.replace(/&amp;/g, "&") ?? "";
      const url = new URL(mailto);
      expect(url.searchParams.get("body")).toBe(text.requests.erase.body.replace(/\n/g, "\r\n"));
    }
  });

  it("links to the privacy policy page, which the footer's dialog opens with JavaScript", () => {
    expect(html.match(/<a href="\/privacy-policy" data-policy-dialog="\/privacy-policy"/g)).toHaveLength(2);
  });
});

describe("readPrivacyNotice: what the server records of the notice an enquiry's sender saw", () => {
  const here = privacyNoticeRenderings(facts);
  const there = privacyNoticeRenderings({ retentionDays: 90, contact: { email: "hello@nirmaan.digital" } });
  /** The site's record of renderings: here's and there's, as if both servers had recorded theirs. */
  const site = {
    find: async (sha256: string): Promise<PrivacyNoticeRendering | undefined> =>
      [...here, ...there].find((rendering) => rendering.sha256 === sha256),
  };
  const fields = (entries: Record<string, string | string[]>) =>
    new Map(Object.entries(entries).map(([name, value]) => [name, Array.isArray(value) ? value : [value]]));
  const posted = (
    version: string | string[],
    language: string | string[],
    hashes: Record<string, string | string[]> = {},
  ) =>
    fields({
      name: "Asha",
      [PRIVACY_NOTICE_FIELDS.version]: version,
      [PRIVACY_NOTICE_FIELDS.language]: language,
      ...Object.fromEntries(
        Object.entries(hashes).map(([each, hash]) => [privacyNoticeHashField(each), hash]),
      ),
    });
  const ofPage = (renderings: PrivacyNoticeRendering[]) =>
    Object.fromEntries(renderings.map((rendering) => [rendering.language, rendering.sha256]));

  it("records the hash the page posted for the language chosen, when the site rendered that text", async () => {
    for (const language of ["en", "hi"]) {
      const text = fillPrivacyNotice(publishedPrivacyNotice(PRIVACY_NOTICE_VERSION, language) ?? "", facts);
      expect(await readPrivacyNotice(posted(PRIVACY_NOTICE_VERSION, language, ofPage(here)), site)).toEqual({
        version: PRIVACY_NOTICE_VERSION,
        language,
        sha256: privacyNoticeSha256(text),
      });
    }
  });

  it("records the text the page showed, not the text the server taking the enquiry would show", async () => {
    const record = await readPrivacyNotice(posted(PRIVACY_NOTICE_VERSION, "hi", ofPage(there)), site);
    expect(record?.sha256).toBe(there[1]?.sha256);
    expect(record?.sha256).not.toBe(here[1]?.sha256);
  });

  it("records nothing for a hash the site never rendered, another language's or version's, or a missing field", async () => {
    const never = privacyNoticeRenderings({ retentionDays: 7, contact: { email: "x@example.in" } });
    for (const form of [
      posted(PRIVACY_NOTICE_VERSION, "en", ofPage(never)),
      posted(PRIVACY_NOTICE_VERSION, "en", { en: "0".repeat(64) }),
      posted(PRIVACY_NOTICE_VERSION, "en", { en: here[1]?.sha256 ?? "" }),
      posted("2020-01-01", "en", ofPage(here)),
      posted(PRIVACY_NOTICE_VERSION, "en", { hi: here[0]?.sha256 ?? "" }),
      posted(PRIVACY_NOTICE_VERSION, "en"),
      posted(PRIVACY_NOTICE_VERSION, "en", { en: [here[0]?.sha256 ?? "", here[0]?.sha256 ?? ""] }),
      posted(PRIVACY_NOTICE_VERSION, "ta", { ta: here[0]?.sha256 ?? "" }),
      posted(PRIVACY_NOTICE_VERSION, "__proto__", ofPage(here)),
      posted("constructor", "en", ofPage(here)),
      posted([PRIVACY_NOTICE_VERSION, PRIVACY_NOTICE_VERSION], "en", ofPage(here)),
      posted(PRIVACY_NOTICE_VERSION, ["en", "hi"], ofPage(here)),
      fields({
        [PRIVACY_NOTICE_FIELDS.version]: PRIVACY_NOTICE_VERSION,
        [privacyNoticeHashField("en")]: here[0]?.sha256 ?? "",
      }),
      fields({}),
    ]) {
      expect(await readPrivacyNotice(form, site)).toBeUndefined();
    }
  });

  it("gives back the language posted, for a refused enquiry's page, when it is one a form could post", () => {
    expect(postedPrivacyNoticeLanguage(posted(PRIVACY_NOTICE_VERSION, "hi"))).toBe("hi");
    expect(postedPrivacyNoticeLanguage(posted(PRIVACY_NOTICE_VERSION, ["en", "hi"]))).toBeUndefined();
    expect(postedPrivacyNoticeLanguage(posted(PRIVACY_NOTICE_VERSION, "<b>"))).toBeUndefined();
    expect(postedPrivacyNoticeLanguage(fields({}))).toBeUndefined();
  });
});

describe("the privacy notice's configuration", () => {
  it("takes the retention from ENQUIRY_RETENTION_DAYS and the contact from PRIVACY_CONTACT, else the footer's address", () => {
    const quiet = () => {};
    expect(privacyFactsFrom(parseEnv({}, quiet))).toMatchObject({
      retentionDays: 90,
      spamRetentionDays: 30,
      contact: { email: "hello@nirmaan.digital" },
      contactConfigured: false,
    });
    const configured = parseEnv(
      { ENQUIRY_RETENTION_DAYS: "45", PRIVACY_CONTACT: "Asha Rao <privacy@nirmaan.digital>" },
      quiet,
    );
    expect(privacyFactsFrom(configured)).toMatchObject({
      retentionDays: 45,
      contact: { name: "Asha Rao", email: "privacy@nirmaan.digital" },
      contactConfigured: true,
    });
  });
});
