/** The withdrawal page: what it does, its form and its answer, in one language, working without JavaScript. */
import type { ReactNode } from "react";
import { WITHDRAWAL_PATH, type WithdrawalWords, withdrawalLanguages } from "~/content/withdrawal";
import {
  ANSWERED_PARAMETER,
  LANGUAGE_PARAMETER,
  WITHDRAWAL_FIELDS,
  type WithdrawalActionData,
  type WithdrawalField,
  type WithdrawalLoaderData,
} from "~/withdrawal/answers";

/**
 * The enquiry form's look for a text control (~/components/field), written out here: importing it
 * would split it into a chunk of its own, which the home page's bundle would then load as well.
 */
const controlClassName =
  "block w-full rounded-lg border border-zinc-300 bg-white px-3.5 py-2.5 text-base text-ink placeholder:text-zinc-500 focus:border-primary focus:outline-none focus-visible:outline-3 focus-visible:outline-primary focus-visible:outline-offset-2 aria-invalid:border-red-600";

const linkClass =
  "font-medium text-primary-dark underline decoration-primary/40 underline-offset-2 hover:decoration-primary-dark";

interface WithdrawalPageProps {
  words: WithdrawalWords;
  page: WithdrawalLoaderData;
  /** A try the page did not take (fields, limit, store), with what was typed. */
  refused?: WithdrawalActionData;
}

/**
 * The page in `words`' language: a link to the other language, the answer or what went wrong
 * (in a status region at the top, where a page loaded anew starts), then the form, which posts
 * the language with it and is given back filled in after a refusal.
 */
export function WithdrawalPage({ words, page, refused }: WithdrawalPageProps) {
  const { language } = words;
  const errors = new Set(refused?.problem === "fields" ? refused.errors : []);
  const values = refused?.values ?? { reference: "", email: "" };
  const fill = (text: string) => fillWords(text, page.contact);
  return (
    <article aria-labelledby="withdrawal-title" lang={language} className="bg-white">
      <div className="mx-auto max-w-2xl px-6 pt-14 pb-20 sm:pt-20">
        <ul className="flex gap-4 text-sm">
          {withdrawalLanguages
            .filter((other) => other.language !== language)
            .map((other) => (
              <li key={other.language}>
                <a
                  href={languagePath(other.language, page.answered && !refused)}
                  lang={other.language}
                  hrefLang={other.language}
                  className={linkClass}
                >
                  {other.languageName}
                </a>
              </li>
            ))}
        </ul>
        <h1
          id="withdrawal-title"
          className="mt-6 font-extrabold text-4xl text-ink leading-tight tracking-tight sm:text-5xl"
        >
          {words.title}
        </h1>
        <div role="status" className="mt-8">
          {refused ? (
            <Notice tone="problem">{problemText(words, refused)}</Notice>
          ) : page.answered ? (
            <Notice tone="answer">
              <strong className="font-semibold">{words.answered}</strong> {fill(words.answeredDetail)}
            </Notice>
          ) : null}
        </div>
        <div className="mt-6 space-y-4 text-lg text-muted leading-relaxed">
          <p>{words.lead}</p>
          <p>{words.scope}</p>
        </div>
        <form
          method="post"
          action={WITHDRAWAL_PATH}
          noValidate
          aria-labelledby="withdrawal-title"
          className="mt-10 grid gap-6"
        >
          <input type="hidden" name={WITHDRAWAL_FIELDS.language} value={language} />
          <TextField
            field="reference"
            label={words.referenceLabel}
            hint={words.referenceHint}
            error={errors.has("reference") ? words.fieldErrors.reference : undefined}
            defaultValue={values.reference}
            input={{
              type: "text",
              autoComplete: "off",
              autoCapitalize: "characters",
              spellCheck: false,
              maxLength: 40,
            }}
          />
          <TextField
            field="email"
            label={words.emailLabel}
            error={errors.has("email") ? words.fieldErrors.email : undefined}
            defaultValue={values.email}
            input={{ type: "email", autoComplete: "email", maxLength: 254 }}
          />
          <div>
            <button
              type="submit"
              className="inline-flex items-center justify-center rounded-full bg-primary px-8 py-3 font-semibold text-white transition-colors hover:bg-primary-dark"
            >
              {words.submit}
            </button>
          </div>
        </form>
        <div className="mt-10 space-y-3 text-muted">
          <p>{fill(words.noReference)}</p>
          <p>{fill(words.policy)}</p>
        </div>
      </div>
    </article>
  );
}

/** The page in `language`, showing the answer when `answered`. */
function languagePath(language: string, answered: boolean): string {
  const query = new URLSearchParams({ [LANGUAGE_PARAMETER]: language });
  if (answered) query.set(ANSWERED_PARAMETER, "1");
  return `${WITHDRAWAL_PATH}?${query}`;
}

function problemText(words: WithdrawalWords, refused: WithdrawalActionData): string {
  if (refused.problem === "fields") return words.fixFields;
  if (refused.problem === "limited")
    return words.limited.replace("{minutes}", String(refused.retryAfterMinutes));
  return words.unavailable;
}

function Notice({ tone, children }: { tone: "answer" | "problem"; children: ReactNode }) {
  const colours =
    tone === "answer"
      ? "border-emerald-300 bg-emerald-50 text-emerald-900"
      : "border-red-300 bg-red-50 text-red-900";
  return <p className={`rounded-lg border px-4 py-3 ${colours}`}>{children}</p>;
}

interface TextFieldProps {
  field: WithdrawalField;
  label: string;
  hint?: string;
  error?: string;
  defaultValue: string;
  input: {
    type: "text" | "email";
    autoComplete: string;
    autoCapitalize?: string;
    spellCheck?: boolean;
    maxLength: number;
  };
}

/** A label, its hint, one input and its error text, tied together with `aria-describedby`. */
function TextField({ field, label, hint, error, defaultValue, input }: TextFieldProps) {
  const id = `withdrawal-${field}`;
  const described = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ");
  return (
    <div>
      <label htmlFor={id} className="block font-semibold text-ink">
        {label}
      </label>
      {hint ? (
        <p id={`${id}-hint`} className="mt-1 text-muted text-sm">
          {hint}
        </p>
      ) : null}
      <input
        {...input}
        id={id}
        name={WITHDRAWAL_FIELDS[field]}
        defaultValue={defaultValue}
        required
        aria-invalid={error ? true : undefined}
        aria-describedby={described || undefined}
        className={`mt-2 ${controlClassName}`}
      />
      {error ? (
        <p id={`${id}-error`} className="mt-1.5 text-red-700 text-sm">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** Words with `{contact}` filled and `[label](contact)` / `[label](policy)` as links. */
function fillWords(text: string, contact: string): ReactNode[] {
  const filled = text.replaceAll("{contact}", contact);
  const nodes: ReactNode[] = [];
  let last = 0;
  for (const match of filled.matchAll(/\[([^\]]+)\]\((contact|policy)\)/g)) {
    const [whole, label, target] = match;
    if (match.index > last) nodes.push(filled.slice(last, match.index));
    nodes.push(
      <a
        key={match.index}
        href={target === "contact" ? `mailto:${contact}` : "/privacy-policy"}
        className={linkClass}
      >
        {label}
      </a>,
    );
    last = match.index + whole.length;
  }
  if (last < filled.length) nodes.push(filled.slice(last));
  return nodes;
}
