/** One JSON POST to a receiver, never following a redirect, and what its answer means for delivery. */
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import type { DeliveryResult } from "~/destinations/destination";
import { describeNetworkError } from "~/network-errors";

/** How long a receiver has to answer a POST (its status line) before the attempt counts as failed. */
export const POST_TIMEOUT_MS = 10_000;
/** The longest `Retry-After` honoured: a receiver asking for more is tried again after this. */
export const MAX_RETRY_AFTER_MS = 15 * 60_000;

/** What came back from one POST: an HTTP answer, or none (with why). */
export type PostAnswer =
  | { answered: true; status: number; retryAfter?: string }
  | { answered: false; cause: string };

/**
 * POSTs `body` to `url` once, with node's own http/https: a redirect is an answer like any
 * other, never followed. The answer's body is not read (the connection is closed instead), so
 * nothing a receiver writes reaches a log line. Never rejects.
 */
export function postJson(
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number = POST_TIMEOUT_MS,
): Promise<PostAnswer> {
  return new Promise((resolve) => {
    const request = (url.startsWith("https:") ? httpsRequest : httpRequest)(url, {
      method: "POST",
      headers: {
        ...headers,
        "content-type": "application/json",
        "content-length": String(Buffer.byteLength(body)),
      },
    });
    const timer = setTimeout(() => {
      settle({ answered: false, cause: `no answer within ${timeoutMs / 1000} s` });
      request.destroy();
    }, timeoutMs);
    let settled = false;
    function settle(answer: PostAnswer) {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(answer);
    }
    request.on("response", (response) => {
      const retryAfter = response.headers["retry-after"];
      settle({ answered: true, status: response.statusCode ?? 0, ...(retryAfter ? { retryAfter } : {}) });
      response.destroy();
    });
    request.on("error", (error) => settle({ answered: false, cause: describeNetworkError(error) }));
    request.end(body);
  });
}

/**
 * `Retry-After` as milliseconds from `now`: delay-seconds or an HTTP date, at most 15 minutes;
 * undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  // An HTTP date names its day and month (`Wed, 21 Oct 2015 07:28:00 GMT`); `-5` is neither form.
  const ms = /^\d+$/.test(text)
    ? Number(text) * 1000
    : /[A-Za-z]/.test(text)
      ? Date.parse(text) - now
      : Number.NaN;
  if (!Number.isFinite(ms)) return undefined;
  return Math.min(Math.max(0, ms), MAX_RETRY_AFTER_MS);
}

/**
 * What an answer means for a delivery. 2xx delivers. 408, 429, 5xx and no answer at all (a
 * timeout, a refused or reset connection, a failed lookup) are worth another try; a receiver
 * that could not be reached has not refused. Any other answer, a redirect included, fails for good.
 */
export function judgeAnswer(answer: PostAnswer, now: number): DeliveryResult {
  if (!answer.answered) return { ok: false, retry: true, error: { cause: answer.cause } };
  const { status } = answer;
  if (status >= 200 && status < 300) return { ok: true };
  if (status === 408 || status === 429 || status >= 500) {
    const retryAfterMs = parseRetryAfter(answer.retryAfter, now);
    return {
      ok: false,
      retry: true,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      error: { status, cause: `HTTP ${status}` },
    };
  }
  const cause =
    status >= 300 && status < 400 ? `HTTP ${status}, a redirect (never followed)` : `HTTP ${status}`;
  return { ok: false, retry: false, error: { status, cause } };
}
