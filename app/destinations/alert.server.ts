import { judgeAnswer, POST_TIMEOUT_MS, postJson } from "~/destinations/post-json.server";
import { hostOf } from "~/webhook-url.server";

/** How long one alert is tried before it is given up. */
export const ALERT_TRY_FOR_MS = 60 * 60_000;
/** The wait after the first failed post, doubling up to ALERT_MAX_RETRY_MS. */
export const ALERT_FIRST_RETRY_MS = 10_000;
export const ALERT_MAX_RETRY_MS = 5 * 60_000;
/** Alerts waiting at most; past that a new one is dropped (the chat is down and knows enough). */
export const MAX_QUEUED_ALERTS = 100;

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

interface Queued {
  text: string;
  giveUpAt: number;
  attempts: number;
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
  const { url } = options;
  const log = options.log ?? console.error;
  const now = options.now ?? Date.now;
  const {
    timeoutMs = POST_TIMEOUT_MS,
    firstRetryMs = ALERT_FIRST_RETRY_MS,
    maxRetryMs = ALERT_MAX_RETRY_MS,
    tryForMs = ALERT_TRY_FOR_MS,
  } = options;
  const host = hostOf(url);
  const queue: Queued[] = [];
  let stopped = false;
  let running: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  /** The cause of the failure in progress, said once; empty while posts go through. */
  let failing = "";

  const schedule = (delayMs: number) => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(pump, delayMs);
    timer.unref();
  };

  function pump() {
    if (stopped || running || queue.length === 0) return;
    running = attempt().finally(() => {
      running = undefined;
    });
  }

  async function attempt() {
    const alert = queue[0];
    if (!alert) return;
    const result = judgeAnswer(
      await postJson(url, JSON.stringify({ text: alert.text }), {}, timeoutMs),
      now(),
    );
    alert.attempts += 1;
    if (result.ok) {
      queue.shift();
      if (failing) log(`alerts: posted to ${host} again`);
      failing = "";
      return schedule(0);
    }
    const { cause } = result.error;
    if (!result.retry) {
      queue.shift();
      failing = "";
      log(`alerts: ${host} refused an alert (${cause}), so it is dropped; check ALERT_WEBHOOK_URL`);
      return schedule(0);
    }
    const backoff = Math.min(maxRetryMs, firstRetryMs * 2 ** (alert.attempts - 1));
    const delayMs = Math.max(backoff, result.retryAfterMs ?? 0);
    if (now() + delayMs > alert.giveUpAt) {
      queue.shift();
      log(
        `alerts: gave up on an alert after ${alert.attempts} attempts over an hour (${cause}); check ${host}`,
      );
      return schedule(0);
    }
    if (failing !== cause) {
      failing = cause;
      log(`alerts: cannot post to ${host} (${cause}); each alert is tried again for an hour`);
    }
    schedule(delayMs);
  }

  return {
    host,
    post(text) {
      if (stopped) return;
      if (queue.length >= MAX_QUEUED_ALERTS) {
        log(`alerts: ${MAX_QUEUED_ALERTS} alerts wait for ${host} already, so a new one is dropped`);
        return;
      }
      queue.push({ text, giveUpAt: now() + tryForMs, attempts: 0 });
      pump();
    },
    queued: () => queue.length,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
