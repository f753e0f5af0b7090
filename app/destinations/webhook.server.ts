/**
 * The agency's lead webhook as a destination: each event signed afresh as Standard Webhooks at
 * each attempt; `lead.received` delivers a lead, `lead.failed` tells of a give-up (queued, with
 * the backoff), `lead.erased` of an erasure.
 */
import { Webhook } from "standardwebhooks";
import type { DeliveryResult, Destination, DestinationLink } from "~/destinations/destination";
import { judgeAnswer, POST_TIMEOUT_MS, type PostAnswer, postJson } from "~/destinations/post-json.server";
import { createRetryQueue } from "~/destinations/retry-queue.server";
import { leadErased, leadFailed, leadReceived, type WebhookMessage } from "~/destinations/webhook-events";
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

/**
 * The link delivery, direct sends, erasure and give-ups reach the webhook through: `lead.received`
 * (a failure logged by the lead's id and the host only: the URL's path may hold a token, the
 * lead's data never goes to a log), `lead.erased`, and `lead.failed` queued with the backoff.
 */
export function webhookLink(webhook: WebhookSender, log: (line: string) => void): DestinationLink {
  const { host } = webhook;
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
    host,
    async send(lead, how = "queued") {
      const result = await webhook.send(leadReceived(lead));
      if (!result.ok) {
        const after =
          how === "direct"
            ? "it was sent directly (kept nowhere) and is not tried again: check the receiver"
            : result.retry
              ? "it is tried again"
              : "it is not tried again: check the receiver";
        log(`lead webhook: ${host} did not take lead ${lead.id} (${result.error.cause}); ${after}`);
      }
      return result;
    },
    tellErased: (leadId, erasedAt) => webhook.send(leadErased({ leadId, erasedAt: erasedAt.toISOString() })),
    heardGaveUp({ leadId, destination, attempts, error }) {
      const failedAt = new Date().toISOString();
      events.push(leadFailed({ leadId, destination, attempts, lastError: error, failedAt }));
    },
    stop: () => events.stop(),
  };
}

export const webhookDestination = {
  name: "webhook",
  title: "the lead webhook",
  timeoutMs: POST_TIMEOUT_MS,
  settings: ["LEAD_WEBHOOK_URL", "LEAD_WEBHOOK_SECRET"],
  check: "check the receiver behind LEAD_WEBHOOK_URL and that it holds the same LEAD_WEBHOOK_SECRET",
  directSend: true,
  erasure: { told: true, event: "lead.erased", where: "the webhook's receiver" },
  judge: judgeAnswer,
  /** With LEAD_WEBHOOK_URL and LEAD_WEBHOOK_SECRET (checked by app/env.server.ts: both or neither). */
  connect(env, log) {
    const { LEAD_WEBHOOK_URL: url, LEAD_WEBHOOK_SECRET: secret } = env;
    if (url === undefined || secret === undefined) return null;
    return webhookLink(createWebhookSender({ url, secret }), log);
  },
} as const satisfies Destination<"webhook", PostAnswer>;
