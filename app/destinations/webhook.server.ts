/** Sends one event to the agency's lead webhook, signed afresh as Standard Webhooks at each attempt. */
import { Webhook } from "standardwebhooks";
import type { DeliveryResult } from "~/destinations/destination";
import { judgeAnswer, POST_TIMEOUT_MS, postJson } from "~/destinations/post-json.server";
import type { WebhookMessage } from "~/destinations/webhook-events";
import { hostOf } from "~/webhook-url.server";

export interface WebhookConfig {
  /** LEAD_WEBHOOK_URL, already checked (https, or http to a private address). */
  url: string;
  /** LEAD_WEBHOOK_SECRET: `whsec_` and the base64 key. */
  secret: string;
  /** At most POST_TIMEOUT_MS (10 s). */
  timeoutMs?: number;
  now?: () => Date;
}

export interface WebhookSender {
  /** The receiver's host: all of the URL a log line may name. */
  readonly host: string;
  /** One attempt. Never throws: every failure comes back as `{ ok: false }`. */
  send(message: WebhookMessage): Promise<DeliveryResult>;
}

/**
 * Sends events to the agency's webhook as Standard Webhooks: a POST of the JSON body with
 * `webhook-id`, `webhook-timestamp` and `webhook-signature`, signed afresh at each attempt so a
 * retry is never older than a receiver's tolerance (five minutes in the reference libraries).
 */
export function createWebhookSender(config: WebhookConfig): WebhookSender {
  const signer = new Webhook(config.secret);
  const now = config.now ?? (() => new Date());
  const timeoutMs = Math.min(config.timeoutMs ?? POST_TIMEOUT_MS, POST_TIMEOUT_MS);
  return {
    host: hostOf(config.url),
    async send(message) {
      const at = now();
      const answer = await postJson(
        config.url,
        message.body,
        {
          "webhook-id": message.id,
          "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
          "webhook-signature": signer.sign(message.id, at, message.body),
        },
        timeoutMs,
      );
      return judgeAnswer(answer, now().getTime());
    },
  };
}
