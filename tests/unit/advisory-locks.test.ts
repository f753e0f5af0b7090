import { describe, expect, test } from "vitest";
import {
  DELIVERER_LOCK,
  LEAD_ID_LOCKS,
  lockKey,
  lockSpace,
  MIGRATION_LOCK,
} from "~/db/advisory-locks.server";

describe("advisory lock keys", () => {
  // The previous release takes these during a rolling deploy: another key would let one of its
  // replicas and one of this release's migrate, or deliver, at the same time.
  test("are the keys the release before took", () => {
    expect(MIGRATION_LOCK).toBe(7_360_221_024n);
    expect(DELIVERER_LOCK).toBe(7_360_221_025n);
    expect(LEAD_ID_LOCKS).toBe(7_360_222);
  });

  test("of a lock added later are derived from its name, the same in every release", () => {
    // sha256("agency-site advisory lock: lead sweep"), its first 8 bytes and its first 4.
    expect(lockKey("lead sweep")).toBe(-3_550_460_705_311_128_549n);
    expect(lockSpace("lead sweep")).toBe(-826_656_052);
    expect(new Set([MIGRATION_LOCK, DELIVERER_LOCK, lockKey("lead sweep")]).size).toBe(3);
  });
});
