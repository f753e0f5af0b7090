/**
 * The withdrawal page (/privacy/withdraw): its address, and its words in each language with the
 * success notice's line that leads there (content/withdrawal.yml).
 */
import type { WithdrawalEntry } from "./entries";
import { withdrawalWords } from "./generated/withdrawal";
import { site } from "./site";
import { WITHDRAWAL_HINT } from "./withdrawal-hint";

/**
 * One language's words. `{contact}` is the privacy contact's e-mail address, `{minutes}` the
 * minutes until another try is allowed; `[label](target)` is a link, to `contact` (an e-mail) or
 * `policy` (the privacy policy).
 */
export type WithdrawalWords = WithdrawalEntry["languages"][number];

/** The line the success notice shows under "Your reference": how to withdraw, around a link. */
export interface WithdrawalHint {
  before: string;
  label: string;
  after: string;
}

export const WITHDRAWAL_PATH = "/privacy/withdraw";

/** Every language of the page, the first the default; the agency's name filled in. */
export const withdrawalLanguages: readonly WithdrawalWords[] = withdrawalWords.languages.map((words) => ({
  ...words,
  summary: words.summary.replaceAll("{name}", site.name),
}));

const [firstLanguage] = withdrawalLanguages;
if (!firstLanguage) throw new Error("content/withdrawal.yml has no language: the content build refuses that");
const defaultLanguage: WithdrawalWords = firstLanguage;

/** The words in `language` (`?lang=`); the first language's for any other value. */
export function withdrawalWordsIn(language: string | null | undefined): WithdrawalWords {
  return withdrawalLanguages.find((words) => words.language === language) ?? defaultLanguage;
}

const [, before = "", label = "", after = ""] = WITHDRAWAL_HINT.exec(withdrawalWords.hint) ?? [];

/** The success notice's line under the reference, in the form's language. */
export const withdrawalHint: WithdrawalHint = { before, label, after };
