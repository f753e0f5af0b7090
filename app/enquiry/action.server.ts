/**
 * The enquiry form's action and loader: a posted enquiry from body to answer, and the notice a
 * URL's token stands for.
 */
import { randomUUID } from "node:crypto";
import { parseWithZod } from "@conform-to/zod/v4";
import { type AppLoadContext, data, redirect } from "@remix-run/node";
import { enquiryForm } from "~/content/generated/enquiry-form.server";
import { readFormBody } from "~/enquiry/body.server";
import { type EnquiryLimitName, takeEnquiryUnits } from "~/enquiry/limits.server";
import { type EnquiryLogLine, logEnquiry } from "~/enquiry/log.server";
import { createMemorySubmissions, enquiryKey, type ReplicatedRun } from "~/enquiry/memory-submissions.server";
import {
  type EnquiryActionData,
  type EnquiryLoaderData,
  NOTICE_PARAMETER,
  type Notice,
  type NoticeKind,
  type NoticeOutcome,
} from "~/enquiry/notices";
import type { PostgresSubmissions } from "~/enquiry/postgres-submissions.server";
import { referenceLineHtml } from "~/enquiry/reference-line.server";
import { enquirySchema, FIELD_ERRORS } from "~/enquiry/schema.server";
import type { SentNotices } from "~/enquiry/sent-notice.server";
import { captureSource } from "~/enquiry/source.server";
import { SPAM_STATUS, spamReason, trapReason } from "~/enquiry/spam.server";
import { CACHE_CONTROL } from "~/http/cache-control";
import type { Allowance } from "~/http/limits.server";
import { ENQUIRY_FIELDS, type Enquiry } from "~/lead-parts/enquiry";
import { leadReference, randomReference } from "~/lead-parts/reference";
import type { LeadSource } from "~/lead-parts/source";
import type { SpamReason } from "~/lead-parts/spam-reasons";
import { PRIVACY_NOTICE_FIELDS } from "~/privacy-notice/fields";
import { postedPrivacyNoticeLanguage, readPrivacyNotice } from "~/privacy-notice/posted.server";
import { describePrivacyNotice, type PrivacyNoticeRecord } from "~/privacy-notice/record";

type Limited = { kind: "limited"; retryAfterSeconds: number; by: EnquiryLimitName };

type Attempt =
  /** `again`: the store held this enquiry's lead already (its id is derived from its content). */
  | { kind: "stored" | "spooled"; leadId: string; again?: boolean }
  /** `leadId`: the id the direct send gave it (absent in what an older release remembered). */
  | { kind: "sent"; to: string; leadId?: string }
  | Limited
  /** Nothing kept or sent; `reachable` false: no destination could take a direct send. */
  | { kind: "failed"; reachable: boolean };

/** What the form tells besides the enquiry: where its sender came from, the privacy notice they were shown. */
type Provenance = { source?: LeadSource; privacyNotice?: PrivacyNoticeRecord };

/** What became of an enquiry a filter caught. */
type Caught = { kind: "quarantined"; leadId: string } | Limited | { kind: "unkept" };

// An enquiry is remembered by its content: a double click, a resubmitted page or a retry
// after a lost response stores it once (a failure is forgotten, so a retry does try again).
// The form carries nothing per visitor, so the home page stays the same for everyone.
// With DATABASE_URL that memory is replicated: every replica holds it
// (~/enquiry/postgres-submissions.server).
const REMEMBERED_MS = 30 * 60 * 1000;
const keepAttempt = (attempt: Attempt) =>
  attempt.kind === "stored" || attempt.kind === "spooled" || attempt.kind === "sent";
const keepCaught = (attempt: Caught) => attempt.kind === "quarantined";
const attempts = createMemorySubmissions<Attempt>({ keep: keepAttempt, ttlMs: REMEMBERED_MS });
const caught = createMemorySubmissions<Caught>({ keep: keepCaught, ttlMs: REMEMBERED_MS });

/** The run of one enquiry in the replicated memory, when there is one. */
function acrossReplicas<T>(
  submissions: PostgresSubmissions | null,
  scope: string,
  enquiry: Enquiry,
  keep: (result: T) => boolean,
  stillHolds: (result: T) => Promise<boolean>,
): ReplicatedRun<T> | undefined {
  if (submissions === null) return undefined;
  return async (task) => {
    const fingerprint = submissions.fingerprint(scope, enquiry);
    if (fingerprint === null) return null;
    return submissions.run({ fingerprint, task, keep, stillHolds, ttlMs: REMEMBERED_MS });
  };
}

/**
 * The success notice the URL's token stands for, shown once. Only a GET claims it: a HEAD (a
 * link checker, a monitoring probe) must not use up the sender's notice.
 */
export async function loadEnquiry(
  request: Request,
  { notices }: Pick<AppLoadContext, "notices">,
): Promise<EnquiryLoaderData> {
  if (request.method !== "GET") return { notice: null };
  const outcome = await notices.redeem(new URL(request.url).searchParams.get(NOTICE_PARAMETER));
  if (!outcome) return { notice: null };
  const referenceHtml = outcome.reference
    ? referenceLineHtml(outcome.reference, enquiryForm.reference)
    : null;
  return { notice: referenceHtml ? { ...withWords(outcome), referenceHtml } : withWords(outcome) };
}

/** The outcome with the words the visitor reads (content/enquiry-form.yml). */
const withWords = (outcome: NoticeOutcome): Notice => ({
  ...outcome,
  text: enquiryForm.notices[outcome.kind],
});

/** What the action uses of the server's services (server/app-services.ts). */
type EnquiryContext = Pick<
  AppLoadContext,
  "client" | "leads" | "enquiryLimits" | "spamRules" | "notices" | "submissions" | "privacyNotices"
>;

export async function handleEnquiry(request: Request, context: EnquiryContext) {
  const started = performance.now();
  const log = (line: Omit<EnquiryLogLine, "ms">) =>
    logEnquiry({ ...line, ms: Math.round(performance.now() - started) });

  const body = await readFormBody(request);
  if (!body.ok) {
    log({ outcome: body.status === 413 ? "too-large" : "bad-request", reason: body.reason });
    return reply(null, "invalid", body.status);
  }
  const { fields } = body;

  const form = new URLSearchParams();
  const structural: Record<string, string[]> = {};
  for (const name of ENQUIRY_FIELDS) {
    const values = fields.get(name);
    if (values?.[0] !== undefined) form.set(name, values[0]);
    if (values?.length !== 1) structural[name] = [FIELD_ERRORS[name]];
  }
  // Back with the values of a refused enquiry, so the page rendered again shows the notice's language chosen.
  const language = postedPrivacyNoticeLanguage(fields);
  if (language !== undefined) form.set(PRIVACY_NOTICE_FIELDS.language, language);
  const submission = parseWithZod(form, { schema: enquirySchema });
  if (submission.status !== "success" || Object.keys(structural).length > 0) {
    // A bot that filled the hidden field gets the success it expects, whatever it typed; an
    // invalid enquiry is no lead to keep.
    const trapped = trapReason(fields);
    if (trapped) {
      log({ outcome: "spam", reason: `${trapped}, invalid fields: not kept` });
      return sentRedirect(context.notices, null);
    }
    log({
      outcome: submission.status === "success" ? "bad-request" : "invalid",
      reason: submission.status === "success" ? "missing or repeated field" : undefined,
    });
    return reply(submission.reply({ fieldErrors: structural }), "invalid", 400);
  }

  const enquiry = submission.value;
  const source = captureSource(request, fields);
  const privacyNotice = await readPrivacyNotice(fields, context.privacyNotices);
  // Each outcome of a valid enquiry names the privacy notice its sender was shown, when known.
  const logShown = (line: Omit<EnquiryLogLine, "ms">) =>
    log({ ...line, privacyNotice: describePrivacyNotice(privacyNotice) || undefined });
  const spam = spamReason(context.spamRules, request, fields, enquiry);
  if (spam)
    return refuseSpam(enquiry, spam, context, submission.reply(), logShown, { source, privacyNotice });
  // A remembered lead that was erased (npm run leads -- erase) or removed is no duplicate.
  const stillHolds = async (earlier: Attempt) =>
    (earlier.kind !== "stored" && earlier.kind !== "spooled") ||
    (await context.leads.stillKeeps(earlier.leadId));
  const { result: attempt, duplicate } = await attempts.run(
    enquiryKey("kept", enquiry),
    () => deliver(enquiry, context, { source, privacyNotice }),
    stillHolds,
    acrossReplicas(context.submissions, "kept", enquiry, keepAttempt, stillHolds),
  );
  switch (attempt.kind) {
    case "stored":
    case "spooled":
      logShown({ outcome: duplicate || attempt.again ? "duplicate" : attempt.kind });
      return sentRedirect(context.notices, attempt.leadId);
    case "sent":
      logShown({ outcome: duplicate ? "duplicate" : "sent", transport: attempt.to });
      return sentRedirect(context.notices, attempt.leadId ?? null);
    case "limited":
      logShown({ outcome: attempt.by === "throttle" ? "throttled" : "rate-limited", reason: attempt.by });
      return reply(submission.reply(), "failed", 429, { "Retry-After": String(attempt.retryAfterSeconds) });
    case "failed": {
      // Nothing was kept. The destinations' failure is not a failure of this page: it answers
      // 200 with the notice and the visitor's words (a 5xx would read as the site being down).
      // With nowhere at all to put an enquiry (the store and the spool unusable, and no
      // destination configured to take a direct send), the operator has to act, and monitoring
      // should see it: 503.
      const unavailable = !attempt.reachable;
      logShown({ outcome: unavailable ? "unavailable" : "failed" });
      return reply(submission.reply(), "failed", unavailable ? 503 : 200);
    }
  }
}

/**
 * What a filter caught is quarantined (kept as `spam`, never delivered), within the flood level
 * and the client's budget like any enquiry, so a flood of it cannot push other quarantined leads
 * out faster than the flood level allows. The answer is the filter's whether or not it was kept:
 * a 303 carries the kept lead's reference, or a random one of the same shape, so a bot learns
 * nothing from it.
 */
async function refuseSpam(
  enquiry: Enquiry,
  reason: SpamReason,
  context: EnquiryContext,
  result: EnquiryActionData["result"],
  log: (line: Omit<EnquiryLogLine, "ms">) => void,
  { source, privacyNotice }: Provenance,
) {
  const { client, leads, enquiryLimits } = context;
  const stillHolds = async (earlier: Caught) =>
    earlier.kind !== "quarantined" || (await leads.stillKeeps(earlier.leadId));
  const { result: attempt, duplicate } = await caught.run(
    enquiryKey(reason, enquiry),
    async (): Promise<Caught> => {
      const units = await takeEnquiryUnits(enquiryLimits, client, { throttle: false });
      if (!units.allowed) return limited(units);
      const leadId = await leads.quarantine(enquiry, reason, source, privacyNotice);
      if (leadId !== null) return { kind: "quarantined", leadId };
      await units.giveBack();
      return { kind: "unkept" };
    },
    stillHolds,
    acrossReplicas(context.submissions, reason, enquiry, keepCaught, stillHolds),
  );
  if (attempt.kind === "quarantined") log({ outcome: duplicate ? "duplicate" : "quarantined", reason });
  else {
    const why = attempt.kind === "limited" ? attempt.by : "the store is unusable";
    log({ outcome: "spam", reason: `${reason}, ${why}: not kept` });
  }
  const status = SPAM_STATUS[reason];
  if (status !== 303) return reply(result, "failed", status);
  return sentRedirect(context.notices, attempt.kind === "quarantined" ? attempt.leadId : null);
}

function limited(refusal: Extract<Allowance<EnquiryLimitName>, { allowed: false }>): Limited {
  return { kind: "limited", retryAfterSeconds: refusal.retryAfterSeconds, by: refusal.by };
}

/**
 * Takes the enquiry's units (flood level, client budget, throttle) before anything is kept, so
 * simultaneous enquiries never pass more than the limits allow; gives them back when nothing
 * could be kept or sent: only an accepted enquiry counts. Kept in the store or its spool, or
 * when neither can, sent directly to every destination that takes a direct send, the visitor
 * waiting for their answers (~/leads/lead-service.server).
 */
async function deliver(
  enquiry: Enquiry,
  context: EnquiryContext,
  { source, privacyNotice }: Provenance,
): Promise<Attempt> {
  const { client, leads, enquiryLimits } = context;
  const units = await takeEnquiryUnits(enquiryLimits, client, { throttle: true });
  if (!units.allowed) return limited(units);
  const kept = await leads.keep(enquiry, source, privacyNotice);
  switch (kept.kind) {
    case "stored":
    case "spooled":
      return { kind: kept.kind, leadId: kept.id, again: kept.duplicate };
    case "sent":
      return { kind: "sent", to: kept.to.join("+"), leadId: kept.id };
    case "unkept":
      await units.giveBack();
      return { kind: "failed", reachable: kept.reachable };
  }
}

/**
 * POST/redirect/GET to the form, with the token of this sender's notice and the reference of
 * lead `leadId` (null: nothing was kept, and a random reference of the same shape stands in,
 * docs/decisions/039-enquiry-reference.md); no cache keeps the redirect.
 */
function sentRedirect(notices: SentNotices, leadId: string | null) {
  const reference = leadId === null ? randomReference() : leadReference(leadId);
  return redirect(notices.landingUrl(reference), {
    status: 303,
    headers: { "Cache-Control": CACHE_CONTROL.never },
  });
}

function reply(
  result: EnquiryActionData["result"],
  kind: NoticeKind,
  status: number,
  headers?: Record<string, string>,
) {
  const payload: EnquiryActionData = { result, notice: withWords({ kind, id: randomUUID() }) };
  return data(payload, { status, headers });
}
