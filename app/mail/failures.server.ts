/**
 * A failed send in the site's own words: the cause alerts, `lead.failed` events and a lead's
 * last error carry (`EmailJS answered 412: the mail account must be reconnected in EmailJS`),
 * and the log line, the only place the provider's own text goes, redacted.
 */
import { EmailJSResponseStatus } from "@emailjs/nodejs";
import { redactProviderText } from "~/mail/redact";
import type { EmailJsAnswer, MailTransport } from "~/mail/types";
import { describeNetworkError, errorCode } from "~/network-errors";

/**
 * What EmailJS (or its library) says in answers the site knows, matched on its text and told
 * in the site's words: the fix, never the text.
 */
const KNOWN_ANSWERS: readonly [RegExp, string][] = [
  [
    /non-browser applications/i,
    "API calls from a server are off: allow them in EmailJS's Account > Security",
  ],
  [/invalid grant|reconnect/i, "the mail account must be reconnected in EmailJS"],
  [/template id/i, "template not found: check EMAILJS_TEMPLATE_ID"],
  [/service id/i, "service not found: check EMAILJS_SERVICE_ID"],
  [/public key|user id|account not found/i, "public key refused: check EMAILJS_PUBLIC_KEY"],
  [/private key|access ?token/i, "private key refused: check EMAILJS_PRIVATE_KEY"],
  [/template params/i, "the template's parameters were refused"],
  [/limit|too many/i, "a sending limit was reached"],
];

/** EmailJS's HTTP statuses in words, for an answer the list above does not know. */
function statusWords(status: number): string {
  if (status === 400) return "the request was refused";
  if (status === 401 || status === 403) return "not allowed";
  if (status === 404) return "not found";
  if (status === 412) return "the mail account must be reconnected in EmailJS";
  if (status === 413) return "too large";
  if (status === 422) return "the mail was refused";
  if (status === 429) return "too many requests";
  if (status >= 500) return "EmailJS or the mail server failed";
  return "an unexpected answer";
}

/** The site's words for what EmailJS answered: a known answer's fix, else its status's words. */
function answerWords(status: number, text: string): string {
  return KNOWN_ANSWERS.find(([pattern]) => pattern.test(text))?.[1] ?? statusWords(status);
}

/**
 * A rejected EmailJS send as the failure delivery keeps: `detail` in the site's words (with the
 * status it names), and `said`, what EmailJS said, without `withoutSecrets`'s secrets (the
 * private key) and redacted, for the log only.
 */
export function emailJsFailure(
  cause: unknown,
  withoutSecrets: (text: string) => string = (text) => text,
): Extract<EmailJsAnswer, { ok: false }> {
  if (cause instanceof EmailJSResponseStatus) {
    const text = String(cause.text);
    const said = redactProviderText(withoutSecrets(text));
    // Status 0: the library's own "Network Error", no answer at all.
    if (cause.status === 0)
      return { ok: false, reason: "rejected", status: 0, detail: "no answer from EmailJS", said };
    return {
      ok: false,
      reason: "rejected",
      status: cause.status,
      detail: `EmailJS answered ${cause.status}: ${answerWords(cause.status, text)}`,
      said,
    };
  }
  if (typeof cause === "string") {
    // The library refused before sending (a missing id or key): its own fixed sentences.
    const words = KNOWN_ANSWERS.find(([pattern]) => pattern.test(cause))?.[1] ?? "the send was refused";
    return {
      ok: false,
      reason: "rejected",
      detail: `EmailJS's library: ${words}`,
      said: redactProviderText(withoutSecrets(cause)),
    };
  }
  if (errorCode(cause) !== undefined) {
    return { ok: false, reason: "rejected", detail: `EmailJS not reached: ${describeNetworkError(cause)}` };
  }
  return {
    ok: false,
    reason: "rejected",
    detail: `the send failed (${cause instanceof Error ? cause.name : "unknown cause"})`,
  };
}

/**
 * The log line of a failed send: its outcome, status and cause in the site's words, and what
 * the provider said with addresses, names in quotes and mentions removed; never the enquiry.
 */
export function logMailFailure(transport: MailTransport["name"], result: EmailJsAnswer): void {
  if (result.ok) return;
  const { reason, status, detail, said } = result;
  console.error(
    JSON.stringify({
      event: "mail",
      transport,
      outcome: reason,
      ...(status === undefined ? {} : { status }),
      cause: detail,
      ...(said === undefined ? {} : { said }),
    }),
  );
}
