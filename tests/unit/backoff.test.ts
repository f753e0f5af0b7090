import { describe, expect, it } from "vitest";
import { backoffMs } from "~/destinations/backoff";

describe("the one backoff every retrying loop uses", () => {
  const limits = { firstMs: 1_000, maxMs: 5_000 };

  it("doubles from the first wait up to its cap, the same each time without jitter", () => {
    expect([1, 2, 3, 4, 5].map((failures) => backoffMs(failures, limits))).toEqual([
      1_000, 2_000, 4_000, 5_000, 5_000,
    ]);
  });

  it("waits at least what a receiver's Retry-After asks, at most the loop's own cap for it", () => {
    expect(backoffMs(1, limits, { retryAfterMs: 3_000 })).toBe(3_000);
    expect(backoffMs(1, { ...limits, maxRetryAfterMs: 5_000 }, { retryAfterMs: 60_000 })).toBe(5_000);
    expect(backoffMs(1, limits, { retryAfterMs: 60_000 })).toBe(60_000);
  });

  it("with jitter, waits between half and all of the wait", () => {
    const jittered = { ...limits, jitter: true };
    expect(backoffMs(2, jittered, { random: () => 0 })).toBe(1_000);
    expect(backoffMs(2, jittered, { random: () => 1 })).toBe(2_000);
  });
});
