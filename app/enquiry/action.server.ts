import { createHash, randomUUID } from "node:crypto";
import { parseWithZod } from "@conform-to/zod/v4";
import { type AppLoadContext, data, redirect } from "@remix-run/node";
import { readFormBody } from "~/enquiry/body.server";
import { ENQUIRY_FIELDS, type Enquiry, HONEYPOT_FIELD } from "~/enquiry/fields";
import { createIdempotencyStore } from "~/enquiry/idempotency.server";
import { type EnquiryLogLine, logEnquiry } from "~/enquiry/log.server";
import {
  type EnquiryActionData,
  type EnquiryLoaderData,
  NOTICE_PARAMETER,
  type NoticeKind,
} from "~/enquiry/notices";
import { enquirySchema, FIELD_ERRORS } from "~/enquiry/schema.server";
import type { SentNotices } from "~/enquiry/sent-notice.server";
import { CACHE_CONTROL } from "~/http/cache-control";
import { logMailFailure, type SendResult } from "~/mail/types";

type Attempt =
  | { kind: "stored" }
  | { kind: "sent" }
  | { kind: "limited"; retryAfterSeconds: number }
  | { kind: "failed"; result: SendResult | null };

// An enquiry is remembered by its content: a double click, a resubmitted page or a retry
// after a lost response stores it once (a failure is forgotten, so a retry does try again).
// The form carries nothing per visitor, so the home page stays the same for everyone.
const attempts = createIdempotencyStore<Attempt>({
  keep: (attempt) => attempt.kind === "stored" || attempt.kind === "sent",
  ttlMs: 30 * 60 * 1000,
});

/**
 * The success notice the URL's token stands for, shown once. Only a GET claims it: a HEAD (a
 * link checker, a monitoring probe) must not use up the sender's notice.
 */
export async function loadEnquiry(
  request: Request,
  { notices }: Pick<AppLoadContext, "notices">,
): Promise<EnquiryLoaderData> {
  if (request.method !== "GET") return { notice: null };
  return { notice: await notices.redeem(new URL(request.url).searchParams.get(NOTICE_PARAMETER)) };
}

/** What the action uses of the server's services (server/services.ts). */
type EnquiryContext = Pick<AppLoadContext, "client" | "leads" | "mail" | "enquiryBudget" | "notices">;

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

  // Bots fill every field they find, or post without the form at all: both get the
  // success they expect, and nothing is sent.
  const honeypot = fields.get(HONEYPOT_FIELD);
  if (honeypot?.length !== 1 || honeypot[0] !== "") {
    log({ outcome: "honeypot" });
    return sentRedirect(context.notices);
  }

  const form = new URLSearchParams();
  const structural: Record<string, string[]> = {};
  for (const name of ENQUIRY_FIELDS) {
    const values = fields.get(name);
    if (values?.[0] !== undefined) form.set(name, values[0]);
    if (values?.length !== 1) structural[name] = [FIELD_ERRORS[name]];
  }
  const submission = parseWithZod(form, { schema: enquirySchema });
  if (submission.status !== "success" || Object.keys(structural).length > 0) {
    log({
      outcome: submission.status === "success" ? "bad-request" : "invalid",
      reason: submission.status === "success" ? "missing or repeated field" : undefined,
    });
    return reply(submission.reply({ fieldErrors: structural }), "invalid", 400);
  }

  const enquiry = submission.value;
  const { client } = context;
  const { result: attempt, duplicate } = await attempts.run(idempotencyKey(enquiry), () =>
    deliver(enquiry, context),
  );
  const transport = context.mail?.name;
  switch (attempt.kind) {
    case "stored":
      log({ outcome: duplicate ? "duplicate" : "stored" });
      return sentRedirect(context.notices);
    case "sent":
      log({ outcome: duplicate ? "duplicate" : "sent", transport });
      return sentRedirect(context.notices);
    case "limited":
      log({ outcome: "rate-limited", reason: client === null ? "site-wide flood level" : "client budget" });
      return reply(submission.reply(), "failed", 429, { "Retry-After": String(attempt.retryAfterSeconds) });
    case "failed": {
      // Nothing was kept. The provider's failure is not a failure of this page: it answers
      // 200 with the notice and the visitor's words (a 5xx would read as the site being down).
      // With nowhere at all to put an enquiry (the store unusable and no working EmailJS
      // configuration), the operator has to act, and monitoring should see it: 503.
      const unavailable =
        attempt.result === null || (!attempt.result.ok && attempt.result.reason === "misconfigured");
      log({ outcome: unavailable ? "unavailable" : "failed", transport });
      return reply(submission.reply(), "failed", unavailable ? 503 : 200);
    }
  }
}

async function deliver(
  enquiry: Enquiry,
  { client, leads, mail, enquiryBudget: budget }: EnquiryContext,
): Promise<Attempt> {
  const verdict = budget.check(client);
  if (!verdict.allowed) return { kind: "limited", retryAfterSeconds: verdict.retryAfterSeconds };
  // Only an accepted enquiry counts against a budget: one the store kept, or one EmailJS took.
  if (await leads.keep(enquiry)) {
    budget.record(client);
    return { kind: "stored" };
  }
  // The store cannot keep it: send it directly, the visitor waiting for EmailJS's answer.
  if (!mail) return { kind: "failed", result: null };
  const result = await mail.send(enquiry);
  if (result.ok) {
    budget.record(client);
    return { kind: "sent" };
  }
  logMailFailure(mail.name, result);
  return { kind: "failed", result };
}

function idempotencyKey(enquiry: Enquiry): string {
  return createHash("sha256").update(JSON.stringify(enquiry)).digest("base64url");
}

/** POST/redirect/GET to the form, with the token of this sender's notice; no cache keeps the redirect. */
function sentRedirect(notices: SentNotices) {
  return redirect(notices.landingUrl(), { status: 303, headers: { "Cache-Control": CACHE_CONTROL.never } });
}

function reply(
  result: EnquiryActionData["result"],
  kind: NoticeKind,
  status: number,
  headers?: Record<string, string>,
) {
  const payload: EnquiryActionData = { result, notice: { kind, id: randomUUID() } };
  return data(payload, { status, headers });
}
