/** The mail transport that sends a lead to the agency through EmailJS's Node SDK, within a time limit. */
import { EmailJSResponseStatus, init, send } from "@emailjs/nodejs";
import { emailJsFailure } from "~/mail/failures.server";
import { toTemplateParams } from "~/mail/template-params";
import type { EmailJsAnswer, MailTransport } from "~/mail/types";

export const EMAILJS_TIMEOUT_MS = 10_000;

export interface EmailJsConfig {
  serviceId: string;
  templateId: string;
  publicKey: string;
  privateKey?: string;
  /** Host name the SDK talks HTTPS:443 to. */
  origin: string;
  /** `to_name` in the template: how the e-mail addresses the agency. */
  recipient: string;
  timeoutMs?: number;
}

/**
 * Sends through EmailJS's Node SDK. The SDK has no timeout and rejects with an
 * EmailJSResponseStatus, an Error or a string; every case becomes `{ ok: false }`.
 */
export function createEmailJsTransport(config: EmailJsConfig, sendEmail: typeof send = send): MailTransport {
  init({ origin: config.origin });
  const timeoutMs = Math.min(config.timeoutMs ?? EMAILJS_TIMEOUT_MS, EMAILJS_TIMEOUT_MS);
  const withoutKey = (text: string) =>
    config.privateKey ? text.split(config.privateKey).join("[private key]") : text;

  return {
    name: "emailjs",
    async send(enquiry, source, privacyNotice, reference) {
      const attempt: Promise<EmailJsAnswer> = sendEmail(
        config.serviceId,
        config.templateId,
        toTemplateParams(enquiry, config.recipient, source, privacyNotice, reference),
        { publicKey: config.publicKey, privateKey: config.privateKey },
      ).then(
        (): EmailJsAnswer => ({ ok: true }),
        (cause: unknown): EmailJsAnswer => {
          // The SDK rejects every status but 200; the original specification counts any 2xx as sent.
          if (cause instanceof EmailJSResponseStatus && cause.status >= 200 && cause.status < 300) {
            return { ok: true };
          }
          return emailJsFailure(cause, withoutKey);
        },
      );
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<EmailJsAnswer>((resolve) => {
        timer = setTimeout(
          () =>
            resolve({
              ok: false,
              reason: "timeout",
              detail: `no answer from EmailJS within ${timeoutMs} ms`,
            }),
          timeoutMs,
        );
      });
      try {
        return await Promise.race([attempt, timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
