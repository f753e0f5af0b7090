/**
 * EmailJS as a destination: a mail to the agency through EmailJS's Node SDK, and its rules for
 * what EmailJS's answers mean. Its record stays in the `leads` row's own columns (the
 * rolling-deploy design: docs/decisions/024-lead-destinations.md).
 */
import type { DeliveryResult, Destination } from "~/destinations/destination";
import { leadReference } from "~/lead-parts/reference";
import { EMAILJS_TIMEOUT_MS } from "~/mail/emailjs-transport.server";
import { logMailFailure } from "~/mail/failures.server";
import { selectTransport } from "~/mail/transport.server";
import type { EmailJsAnswer } from "~/mail/types";

/** EmailJS answers that no retry can fix: bad request, wrong ids or key, API disabled. */
const PERMANENT_STATUSES = new Set([400, 401, 403, 404, 412, 422]);

/**
 * EmailJS's answer as a delivery result: its detail (`EmailJS answered 412: …`) is the cause, its
 * status (when it answered) is data. Final when no retry can fix it (the statuses above, when
 * EmailJS rejected the send); timeouts, network errors, 5xx, 429, a partial configuration and
 * anything unexpected are worth another try.
 */
export function judgeEmailJsAnswer(answer: EmailJsAnswer): DeliveryResult {
  if (answer.ok) return { ok: true };
  const permanent =
    answer.reason === "rejected" && answer.status !== undefined && PERMANENT_STATUSES.has(answer.status);
  const status = answer.status ? { status: answer.status } : {};
  return { ok: false, retry: !permanent, error: { ...status, cause: answer.detail } };
}

export const emailJsDestination = {
  name: "emailjs",
  title: "EmailJS",
  timeoutMs: EMAILJS_TIMEOUT_MS,
  settings: [
    "EMAILJS_SERVICE_ID",
    "EMAILJS_TEMPLATE_ID",
    "EMAILJS_PUBLIC_KEY",
    "EMAILJS_PRIVATE_KEY",
    "EMAILJS_ORIGIN",
  ],
  check:
    "check the EmailJS dashboard (a 412 means the mail account must be reconnected there) and the EMAILJS_* variables",
  directSend: true,
  erasure: { told: false, byHand: "delete its mail from the agency's mailbox" },
  judge: judgeEmailJsAnswer,
  /** EmailJS when its three ids are set; `held` when only some are (the log names the missing ones). */
  connect(env) {
    const mail = selectTransport(env);
    if (mail === null) return null;
    if (mail.name !== "emailjs") return "held";
    return {
      // A direct send is the same one attempt; the enquiry's log line says it was direct.
      async send(lead) {
        const answer = await mail.send(lead.enquiry, lead.source, lead.privacyNotice, leadReference(lead.id));
        logMailFailure(mail.name, answer);
        return judgeEmailJsAnswer(answer);
      },
    };
  },
} as const satisfies Destination<"emailjs", EmailJsAnswer>;
