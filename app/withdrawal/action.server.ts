/**
 * The withdrawal page's action and loader: a try from its body to its answer, the same whether or
 * not an enquiry matched, and the page's language and answer read from its URL.
 */
import { type AppLoadContext, data, redirect } from "@remix-run/node";
import { privacyFacts } from "~/content/privacy-facts.server";
import { WITHDRAWAL_PATH, withdrawalWordsIn } from "~/content/withdrawal";
import { readFormBody, singleValue } from "~/enquiry/body.server";
import { CACHE_CONTROL } from "~/http/cache-control";
import type { WithdrawAnswer } from "~/leads/lead-service.server";
import {
  ANSWERED_PARAMETER,
  LANGUAGE_PARAMETER,
  WITHDRAWAL_FIELDS,
  type WithdrawalActionData,
  type WithdrawalLoaderData,
} from "./answers";
import { readWithdrawal } from "./form.server";
import { takeWithdrawalUnits, type WithdrawalLimitName } from "./limits.server";

/**
 * The earliest a try that reached the store is answered, from the action's start: the store's work
 * (a lookup, or a lookup and erasures) takes far less, so every answer comes at this time and how
 * long that work took does not show. Why: docs/decisions/048-withdrawal-on-the-site.md.
 */
export const ANSWER_FLOOR_MS = 600;

/** A withdrawal's body: two short fields and the language, well under this. */
const MAX_BODY_BYTES = 4 * 1024;

/** What the action uses of the server's services (server/app-services.ts). */
type WithdrawalContext = Pick<AppLoadContext, "client" | "leads" | "withdrawalLimits">;

type Outcome = "answered" | "invalid" | "bad-request" | "limited" | "unavailable";

/** One JSON line per try: its outcome and time, the limit that refused it; never what was typed. */
function logTry(outcome: Outcome, started: number, reason?: WithdrawalLimitName) {
  const ms = Math.round(performance.now() - started);
  console.log(JSON.stringify({ event: "withdrawal", outcome, ...(reason ? { reason } : {}), ms }));
}

/** The page's language from `?lang=` or the posted `lang`: one of the page's, else English. */
const languageOf = (value: string | null | undefined) => withdrawalWordsIn(value).language;

/** The page for a GET: its language, whether it shows a withdrawal's answer, and who to write to. */
export function loadWithdrawal(request: Request): WithdrawalLoaderData {
  const query = new URL(request.url).searchParams;
  return {
    language: languageOf(query.get(LANGUAGE_PARAMETER)),
    answered: query.get(ANSWERED_PARAMETER) === "1",
    contact: privacyFacts.contact.email,
  };
}

/**
 * A try: malformed fields come back at once (400, nothing looked up); past a limit, 429 with
 * `Retry-After`; otherwise the store's lookup (and erasure, when it matched), answered no sooner
 * than ANSWER_FLOOR_MS: a redirect to the answer (303), or "try again" (503) when the store could
 * not do it, with nothing erased. Every answer that is not a redirect gives back what was typed and
 * is stored by no cache.
 */
export async function handleWithdrawal(request: Request, context: WithdrawalContext) {
  const started = performance.now();
  const body = await readFormBody(request, MAX_BODY_BYTES);
  const language = languageOf(
    body.ok
      ? singleValue(body.fields, WITHDRAWAL_FIELDS.language)
      : new URL(request.url).searchParams.get(LANGUAGE_PARAMETER),
  );
  if (!body.ok) {
    logTry("bad-request", started);
    const values = { reference: "", email: "" };
    return reply({ language, values, problem: "fields", errors: ["reference", "email"] }, body.status);
  }
  const read = readWithdrawal(body.fields);
  if (!read.ok) {
    logTry("invalid", started);
    return reply({ language, values: read.values, problem: "fields", errors: read.errors }, 400);
  }
  const { values } = read;
  let answer: WithdrawAnswer = "unavailable";
  try {
    const units = await takeWithdrawalUnits(context.withdrawalLimits, context.client, read.request.reference);
    if (!units.allowed) {
      logTry("limited", started, units.by);
      const retryAfterMinutes = Math.ceil(units.retryAfterSeconds / 60);
      return reply({ language, values, problem: "limited", retryAfterMinutes }, 429, {
        "Retry-After": String(units.retryAfterSeconds),
      });
    }
    answer = await context.leads.withdraw(read.request);
    // Nothing was done: the try is given back, so an outage never uses up a visitor's tries.
    if (answer === "unavailable") await units.giveBack();
  } catch {
    answer = "unavailable";
  }
  await untilFloor(started);
  logTry(answer, started);
  if (answer === "unavailable") return reply({ language, values, problem: "unavailable" }, 503);
  return redirect(answeredPath(language), { status: 303, headers: { "Cache-Control": CACHE_CONTROL.never } });
}

/** The page showing the answer, in `language`. */
export function answeredPath(language: string): string {
  const query = new URLSearchParams({ [ANSWERED_PARAMETER]: "1" });
  if (language !== withdrawalWordsIn(undefined).language) query.set(LANGUAGE_PARAMETER, language);
  return `${WITHDRAWAL_PATH}?${query}`;
}

/** Waits until ANSWER_FLOOR_MS after `started` (performance.now()). */
function untilFloor(started: number): Promise<void> {
  const left = ANSWER_FLOOR_MS - (performance.now() - started);
  return left > 0 ? new Promise((resolve) => setTimeout(resolve, left)) : Promise.resolve();
}

function reply(payload: WithdrawalActionData, status: number, headers: Record<string, string> = {}) {
  return data(payload, { status, headers: { "Cache-Control": CACHE_CONTROL.never, ...headers } });
}
