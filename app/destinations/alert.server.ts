/** Posts alerts to a team chat's incoming webhook, queued and retried without ever holding up a lead. */
import { judgeAnswer, POST_TIMEOUT_MS, postJson } from "~/destinations/post-json.server";
import {
  createRetryQueue,
  MAX_QUEUED,
  QUEUE_FIRST_RETRY_MS,
  QUEUE_MAX_RETRY_MS,
  QUEUE_TRY_FOR_MS,
} from "~/destinations/retry-queue.server";
import { hostOf } from "~/webhook-url.server";

/** How long one alert is tried before it is given up. */
export const ALERT_TRY_FOR_MS = QUEUE_TRY_FOR_MS;
/** The wait after the first failed post, doubling up to ALERT_MAX_RETRY_MS. */
export const ALERT_FIRST_RETRY_MS = QUEUE_FIRST_RETRY_MS;
export const ALERT_MAX_RETRY_MS = QUEUE_MAX_RETRY_MS;
/** Alerts waiting at most; past that a new one is dropped (the chat is down and knows enough). */
export const MAX_QUEUED_ALERTS = MAX_QUEUED;

export interface AlertPoster {
  /** The chat's host: all of ALERT_WEBHOOK_URL a log line may name (Slack's path is a token). */
  readonly host: string;
  /** Queues one text and returns at once: nothing the caller does ever waits for the chat. */
  post(text: string): void;
  /** Alerts not posted yet. */
  queued(): number;
  /** Starts no new attempt; resolves once the one in flight ends (the caller bounds the wait). */
  stop(): Promise<void>;
}

/**
 * One attempt to post `text` to the team chat, its answer judged as the poster judges it: for a
 * message kept and retried by its sender (a withdrawn lead's, in the store until the chat took it).
 */
export async function postAlertOnce(url: string, text: string, timeoutMs = POST_TIMEOUT_MS) {
  return judgeAnswer(await postJson(url, JSON.stringify({ text }), {}, timeoutMs), Date.now());
}

/**
 * Posts `{"text": "…"}` to a team chat's incoming webhook (Slack, Google Chat, Mattermost,
 * Rocket.Chat, Discord's `/slack` endpoint), one alert at a time in order, on its own timers.
 * An alert the chat cannot take now (no answer, 408, 429, 5xx) is tried again with backoff for
 * an hour; one it refuses (another 4xx, a redirect: never followed) is dropped with a log line.
 */
export function createAlertPoster(options: {
  /** ALERT_WEBHOOK_URL, already checked (https, or http to a private address). */
  url: string;
  log?: (line: string) => void;
  now?: () => number;
  timeoutMs?: number;
  firstRetryMs?: number;
  maxRetryMs?: number;
  tryForMs?: number;
}): AlertPoster {
  const { url, timeoutMs = POST_TIMEOUT_MS, now = Date.now } = options;
  const host = hostOf(url);
  const queue = createRetryQueue<string>({
    ...options,
    attempt: async (text) => judgeAnswer(await postJson(url, JSON.stringify({ text }), {}, timeoutMs), now()),
    words: {
      name: "alerts",
      item: "an alert",
      each: "each alert",
      items: "alerts",
      variable: "ALERT_WEBHOOK_URL",
      host,
    },
  });
  return { host, post: queue.push, queued: queue.queued, stop: queue.stop };
}
