/**
 * Wires the destinations a lead goes to (EmailJS, the lead webhook), their direct sends, and the
 * webhook's `lead.failed` events from the environment.
 */
import { deliveryErrorOf } from "~/destinations/destination";
import { createRetryQueue } from "~/destinations/retry-queue.server";
import { createWebhookSender } from "~/destinations/webhook.server";
import { leadFailed, leadReceived, type WebhookMessage } from "~/destinations/webhook-events";
import type { Env } from "~/env.server";
import { leadReference } from "~/lead-parts/reference";
import type { DestinationRoutes, GaveUp } from "~/leads/delivery/delivery.server";
import type { Lead } from "~/leads/lead";
import { emailJsResult } from "~/leads/retry-policy";
import type { DirectSenders } from "~/leads/service.server";
import { logMailFailure } from "~/mail/failures.server";
import type { MailTransport } from "~/mail/types";

/** Where delivery sends leads, and what it tells when a destination gives up on one. */
export interface LeadDestinations {
  routes: DestinationRoutes;
  /**
   * How each destination takes a lead sent directly (neither the store nor its spool could keep
   * it): once, the visitor waiting, never retried. EmailJS when fully configured, the webhook
   * when configured.
   */
  direct: DirectSenders;
  /** A destination gave up on a lead: `lead.failed` to the webhook, when there is one. */
  onGaveUp(gaveUp: GaveUp): void;
  /** Starts no new `lead.failed` attempt; resolves once the one in flight ends. */
  stop(): Promise<void>;
}

/**
 * The destinations as delivery reaches them: EmailJS's send (which logs a failure), or `held`
 * while it is partly configured, none when not configured at all; the webhook with LEAD_WEBHOOK_URL
 * and LEAD_WEBHOOK_SECRET (checked by app/env.server.ts: both or neither).
 */
export function createLeadDestinations(
  env: Pick<Env, "LEAD_WEBHOOK_URL" | "LEAD_WEBHOOK_SECRET">,
  mail: MailTransport | null,
  log: (line: string) => void = console.error,
): LeadDestinations {
  const routes: DestinationRoutes = {};
  const direct: DirectSenders = {};
  if (mail?.name === "emailjs") {
    // A direct send is the same one attempt; the enquiry's log line says it was direct.
    routes.emailjs = direct.emailjs = async (lead) => {
      const result = await mail.send(lead.enquiry, lead.source, lead.privacyNotice, leadReference(lead.id));
      logMailFailure(mail.name, result);
      return emailJsResult(result);
    };
  } else if (mail) routes.emailjs = "held";

  const { LEAD_WEBHOOK_URL: url, LEAD_WEBHOOK_SECRET: secret } = env;
  if (url === undefined || secret === undefined) {
    return { routes, direct, onGaveUp: () => {}, stop: async () => {} };
  }
  const webhook = createWebhookSender({ url, secret });
  const { host } = webhook;
  // The host only: the URL's path may hold a token. The lead by its id, never its data.
  const sendReceived = async (lead: Lead, after: (retry: boolean) => string) => {
    const result = await webhook.send(leadReceived(lead));
    if (!result.ok)
      log(
        `lead webhook: ${host} did not take lead ${lead.id} (${result.error.cause}); ${after(result.retry)}`,
      );
    return result;
  };
  routes.webhook = (lead) =>
    sendReceived(lead, (retry) =>
      retry ? "it is tried again" : "it is not tried again: check the receiver",
    );
  direct.webhook = (lead) =>
    sendReceived(
      lead,
      () => "it was sent directly (kept nowhere) and is not tried again: check the receiver",
    );
  const events = createRetryQueue<WebhookMessage>({
    attempt: (message) => webhook.send(message),
    words: {
      name: "lead webhook",
      item: "a lead.failed event",
      each: "each lead.failed event",
      items: "lead.failed events",
      variable: "LEAD_WEBHOOK_URL",
      host,
    },
    log,
  });
  return {
    routes,
    direct,
    onGaveUp({ leadId, destination, attempts, lastError }) {
      const failedAt = new Date().toISOString();
      events.push(
        leadFailed({ leadId, destination, attempts, lastError: deliveryErrorOf(lastError), failedAt }),
      );
    },
    stop: () => events.stop(),
  };
}
