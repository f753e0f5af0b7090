/**
 * Chooses the mail transport from the environment: EmailJS, none (the store is the inbox), or
 * misconfigured.
 *
 * Why the server sends the mail: docs/decisions/005-mail-sent-by-the-server.md.
 */
import { site } from "~/content/site";
import type { Env } from "~/env.server";
import { createEmailJsTransport } from "~/mail/emailjs-transport.server";
import type { MailTransport } from "~/mail/types";

const EMAILJS_IDS = ["EMAILJS_SERVICE_ID", "EMAILJS_TEMPLATE_ID", "EMAILJS_PUBLIC_KEY"] as const;

/**
 * EmailJS when its three ids are set; null when none is (the lead store is then the inbox);
 * otherwise the configuration is incomplete and every send fails as misconfigured.
 */
export function selectTransport(
  config: Env,
  log: (line: string) => void = console.log,
  warn: (line: string) => void = console.error,
): MailTransport | null {
  const missing = EMAILJS_IDS.filter((name) => config[name] === undefined);
  const {
    EMAILJS_SERVICE_ID: serviceId,
    EMAILJS_TEMPLATE_ID: templateId,
    EMAILJS_PUBLIC_KEY: publicKey,
  } = config;
  if (serviceId && templateId && publicKey) {
    log(`mail: sending enquiries through EmailJS (https://${config.EMAILJS_ORIGIN})`);
    return createEmailJsTransport({
      serviceId,
      templateId,
      publicKey,
      privateKey: config.EMAILJS_PRIVATE_KEY,
      origin: config.EMAILJS_ORIGIN,
      recipient: site.enquiryRecipient,
    });
  }
  if (missing.length === EMAILJS_IDS.length) {
    log(
      `mail: EmailJS is not configured; enquiries are kept as inbox leads in ${config.ENQUIRY_STORE_DIR} (read them with npm run leads)`,
    );
    return null;
  }
  warn(
    `mail: EmailJS is partly configured, missing ${missing.join(", ")}; enquiries are kept as pending leads and none is delivered until it is set`,
  );
  return {
    name: "none",
    send: async () => ({ ok: false, reason: "misconfigured", detail: `missing ${missing.join(", ")}` }),
  };
}
