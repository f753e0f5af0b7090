/**
 * Every privacy notice the site has published, by version and language: its canonical text
 * (~/privacy-notice/text), with the server's configuration still written `{retentionDays}`
 * and `{privacyContact}`. A lead's recorded SHA-256 is matched to its text by filling those in
 * with the configuration of the time and hashing the result.
 *
 * Never change a published text: a changed notice is a new version, added here beside the old
 * ones (tests/unit/privacy-notice.test.ts holds their hashes).
 */
const published: Record<string, Record<string, readonly string[]>> = {
  "2026-11-26": {
    en: [
      "Privacy notice",
      "Sending this form is your consent for Nirmaan Digital to use what you send only as set out here. You can withdraw it at any time.",
      "What we collect: your name, e-mail, phone number and message, and the page and campaign you came to us from.",
      "Why: to answer this enquiry, and to know which campaign brought it. We never add you to a mailing list.",
      "Who receives it: our team, and the tools we answer with — our e-mail service (EmailJS) and, where we use one, our CRM or automation tool.",
      "How long we keep it: {retentionDays} days from its arrival; then we delete it from our web server and from our team’s mailbox.",
      "Your choices: withdraw your consent and have your data erased, or have it corrected. Each link opens an e-mail to {privacyContact}, already written.",
      "Complaints: write to {privacyContact}. If we have not resolved it within one month, you can complain to the Data Protection Board of India.",
      "All the details are in our Privacy Policy.",
    ],
    hi: [
      "गोपनीयता सूचना",
      "यह फ़ॉर्म भेजकर आप Nirmaan Digital को अनुमति देते हैं कि वह आपकी भेजी जानकारी का इस्तेमाल सिर्फ़ उसी तरह करे जैसा यहाँ लिखा है। यह अनुमति आप जब चाहें वापस ले सकते हैं।",
      "हम क्या लेते हैं: आपका नाम, ई-मेल, फ़ोन नंबर और संदेश, और यह कि आप किस पेज और किस अभियान (कैंपेन) के ज़रिए हम तक पहुँचे।",
      "किसलिए: आपकी इस पूछताछ का जवाब देने के लिए, और यह जानने के लिए कि कौन-सा अभियान इसे लाया। हम आपको किसी मेलिंग लिस्ट में नहीं जोड़ते।",
      "यह किसके पास जाती है: हमारी टीम के पास, और उन साधनों के पास जिनसे हम जवाब देते हैं — हमारी ई-मेल सेवा (EmailJS) और, अगर हम इस्तेमाल करते हैं तो, हमारा CRM या ऑटोमेशन टूल।",
      "कब तक रखते हैं: मिलने के बाद {retentionDays} दिन तक; फिर हम इसे अपने वेब सर्वर और अपनी टीम के मेलबॉक्स, दोनों से मिटा देते हैं।",
      "आपके विकल्प: अपनी अनुमति वापस लें और जानकारी मिटवाएँ, या उसे ठीक करवाएँ। हर लिंक {privacyContact} के लिए पहले से लिखा ई-मेल खोलता है, बस भेज दीजिए।",
      "शिकायत: {privacyContact} पर लिखें। अगर एक महीने में हल न निकले, तो आप भारतीय डाटा संरक्षण बोर्ड (Data Protection Board of India) से शिकायत कर सकते हैं।",
      "पूरी जानकारी हमारी गोपनीयता नीति में है (अंग्रेज़ी में)।",
    ],
  },
};

/** The versions ever published, oldest first. */
export const PUBLISHED_PRIVACY_NOTICE_VERSIONS: readonly string[] = Object.keys(published);

/** The languages a published version was shown in. */
export function publishedPrivacyNoticeLanguages(version: string): readonly string[] {
  return Object.hasOwn(published, version) ? Object.keys(published[version] ?? {}) : [];
}

/** The text of one published version in one language, or undefined when there is none. */
export function publishedPrivacyNotice(version: string, language: string): string | undefined {
  const texts = Object.hasOwn(published, version) ? published[version] : undefined;
  return texts && Object.hasOwn(texts, language) ? texts[language]?.join("\n") : undefined;
}
