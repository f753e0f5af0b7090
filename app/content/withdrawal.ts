/** The words of the withdrawal page (/privacy/withdraw), in English and in Hindi. */
import { site } from "~/content/site";

/**
 * One language's words. `{contact}` is the privacy contact's e-mail address, `{minutes}` the
 * minutes until another try is allowed; `[label](target)` is a link, to `contact` (an e-mail) or
 * `policy` (the privacy policy).
 */
export interface WithdrawalWords {
  /** BCP 47 code: the page's `lang` and its `?lang=`. */
  language: string;
  /** The language's own name for itself, on the link that switches to it. */
  languageName: string;
  title: string;
  /** The meta description. */
  summary: string;
  /** What the page does, before the form. */
  lead: string;
  /** What the form erases and who is told. */
  scope: string;
  referenceLabel: string;
  referenceHint: string;
  emailLabel: string;
  submit: string;
  /** The answer to every withdrawal, whether or not an enquiry matched. */
  answered: string;
  /** After the answer: what happened if it matched, and what to do if it did not. */
  answeredDetail: string;
  fieldErrors: { reference: string; email: string };
  /** Above the form when a field is wrong. */
  fixFields: string;
  limited: string;
  unavailable: string;
  /** For a visitor without a reference. */
  noReference: string;
  policy: string;
}

/** The line the success notice shows under "Your reference": how to withdraw. */
export interface WithdrawalHint {
  before: string;
  label: string;
  after: string;
}

export const WITHDRAWAL_PATH = "/privacy/withdraw";

const english: WithdrawalWords = {
  language: "en",
  languageName: "English",
  title: "Withdraw your consent",
  summary: `Withdraw the consent you gave with an enquiry to ${site.name}, and have its data erased, with the reference shown after you sent it.`,
  lead: "Sending us an enquiry was your consent for us to use what you sent. You can withdraw it here, as easily: give the reference shown after you sent the enquiry, and the e-mail address you sent it with.",
  scope:
    "We then erase that enquiry and every other enquiry sent with that e-mail address from our website, tell the tools that received a copy (our CRM or automation tool) to erase theirs, and our team deletes the e-mail that brought it.",
  referenceLabel: "Your enquiry’s reference",
  referenceHint: "Shown after you sent the enquiry, such as NRM-7KQ2-M9XD.",
  emailLabel: "The e-mail address you sent it with",
  submit: "Withdraw my consent",
  answered: "If an enquiry matched, it has been erased.",
  answeredDetail:
    "If you have no reference, or think nothing matched, write to [{contact}](contact) and we will find your enquiry by your e-mail address or phone number.",
  fieldErrors: {
    reference: "Enter the reference shown after you sent your enquiry, such as NRM-7KQ2-M9XD.",
    email: "Enter the e-mail address you sent your enquiry with, such as name@company.com.",
  },
  fixFields: "Please correct the fields marked below.",
  limited: "Too many tries. Please try again in {minutes} minutes.",
  unavailable: "We could not do this now; please try again in a few minutes.",
  noReference:
    "No reference? Write to [{contact}](contact) with the e-mail address or phone number you gave, and we will erase your enquiry.",
  policy: "How we handle your data: our [Privacy Policy](policy).",
};

/** Written for a Hindi reader, not translated word for word from the English. */
const hindi: WithdrawalWords = {
  language: "hi",
  languageName: "हिन्दी",
  title: "अपनी अनुमति वापस लें",
  summary: `${site.name} को पूछताछ के साथ दी अनुमति वापस लें और उसकी जानकारी मिटवाएँ, पूछताछ भेजने के बाद दिखे संदर्भ से।`,
  lead: "हमें पूछताछ भेजकर आपने अपनी भेजी जानकारी के इस्तेमाल की अनुमति दी थी। उसे आप यहाँ उतनी ही आसानी से वापस ले सकते हैं: पूछताछ भेजने के बाद दिखा संदर्भ (रेफ़रेंस) और वह ई-मेल पता दीजिए जिससे आपने पूछताछ भेजी थी।",
  scope:
    "तब हम वह पूछताछ और उस ई-मेल पते से भेजी हर पूछताछ अपनी वेबसाइट से मिटा देते हैं, जिन साधनों (हमारे CRM या ऑटोमेशन टूल) को उसकी प्रति मिली थी उन्हें भी मिटाने को कहते हैं, और हमारी टीम वह ई-मेल मिटा देती है जिससे पूछताछ उस तक पहुँची थी।",
  referenceLabel: "आपकी पूछताछ का संदर्भ (रेफ़रेंस)",
  referenceHint: "यह पूछताछ भेजने के बाद दिखा था, जैसे NRM-7KQ2-M9XD।",
  emailLabel: "वह ई-मेल पता जिससे आपने पूछताछ भेजी थी",
  submit: "अनुमति वापस लें",
  answered: "अगर कोई पूछताछ मेल खाती थी, तो उसे मिटा दिया गया है।",
  answeredDetail:
    "अगर आपके पास संदर्भ नहीं है, या आपको लगता है कि कुछ मेल नहीं खाया, तो [{contact}](contact) पर लिखें; हम आपके ई-मेल पते या फ़ोन नंबर से आपकी पूछताछ ढूँढ लेंगे।",
  fieldErrors: {
    reference: "पूछताछ भेजने के बाद दिखा संदर्भ लिखें, जैसे NRM-7KQ2-M9XD।",
    email: "वह ई-मेल पता लिखें जिससे आपने पूछताछ भेजी थी, जैसे name@company.com।",
  },
  fixFields: "कृपया नीचे चिह्नित जगहें ठीक करें।",
  limited: "बहुत बार कोशिश हो चुकी है। कृपया {minutes} मिनट बाद फिर कोशिश करें।",
  unavailable: "अभी यह नहीं हो सका; कृपया कुछ मिनट बाद फिर कोशिश करें।",
  noReference:
    "संदर्भ नहीं है? पूछताछ में दिया ई-मेल पता या फ़ोन नंबर लिखकर [{contact}](contact) पर भेजें, हम आपकी पूछताछ मिटा देंगे।",
  policy: "हम आपकी जानकारी कैसे सँभालते हैं: हमारी [गोपनीयता नीति](policy) (अंग्रेज़ी में)।",
};

/** Every language of the page, English first (the default). */
export const withdrawalLanguages = [english, hindi] as const;

/** The words in `language` (`?lang=`); English for any other value. */
export function withdrawalWordsIn(language: string | null | undefined): WithdrawalWords {
  return withdrawalLanguages.find((words) => words.language === language) ?? english;
}

/** The success notice's line under the reference, in English like the rest of the form. */
export const withdrawalHint: WithdrawalHint = {
  before: "To withdraw your consent, use this reference on ",
  label: "our withdrawal page",
  after: ".",
};
