/** What the withdrawal page's loader and action hand the page: the language, the answer, and what to show again. */

/** The form's fields, by the names it posts. */
export const WITHDRAWAL_FIELDS = { reference: "reference", email: "email", language: "lang" } as const;

export type WithdrawalField = "reference" | "email";

/** What the visitor typed, given back with a page that did not take it (never kept by the server). */
export type WithdrawalValues = Record<WithdrawalField, string>;

/** The page for a GET: in which language, and whether it shows the answer of a withdrawal (`?done=1`). */
export interface WithdrawalLoaderData {
  language: string;
  answered: boolean;
  /** The privacy contact's e-mail address (PRIVACY_CONTACT, else the footer's). */
  contact: string;
}

/** A try the page did not take: fields to correct, too many tries, or a store that could not do it now. */
export type WithdrawalActionData = {
  language: string;
  values: WithdrawalValues;
} & (
  | { problem: "fields"; errors: WithdrawalField[] }
  | { problem: "limited"; retryAfterMinutes: number }
  | { problem: "unavailable" }
);

/** The query that asks the page for the answer, after the POST's redirect. */
export const ANSWERED_PARAMETER = "done";
export const LANGUAGE_PARAMETER = "lang";
