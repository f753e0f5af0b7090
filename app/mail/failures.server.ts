/** The log line of a failed send, naming its cause and never the enquiry. */
import type { MailTransport, SendResult } from "~/mail/types";

/** What went wrong, in one short line: an error's name and message. */
export function describeCause(cause: unknown): string {
  if (cause instanceof Error) return `${cause.name}: ${cause.message}`;
  if (typeof cause === "string") return cause;
  return "unknown cause";
}

/** The log line of a failed send: its cause, never the enquiry it was about. */
export function logMailFailure(transport: MailTransport["name"], result: SendResult): void {
  if (result.ok) return;
  console.error(JSON.stringify({ event: "mail", transport, outcome: result.reason, cause: result.detail }));
}
