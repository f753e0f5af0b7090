import { describe, expect, it } from "vitest";
import { cookiePolicy, privacyPolicy } from "~/content/policies/index.server";
import type { Policy } from "~/content/policies/types";
import { METRIC_NAMES } from "~/vitals/metrics";
import { RETENTION_MS } from "~/vitals/store.server";
import { SUMMARY_WINDOW_MS } from "~/vitals/summary";

const DAY = 24 * 60 * 60 * 1000;
const textOf = (policy: Policy) => JSON.stringify([policy.intro, policy.sections]).replace(/\\"/g, '"');

describe("the policies on page-speed measurements", () => {
  const privacy = textOf(privacyPolicy);
  const cookies = textOf(cookiePolicy);

  it("name every metric measured, say it is anonymous and that no cookie is used", () => {
    for (const name of METRIC_NAMES) expect(privacy).toContain(name);
    expect(privacy).toMatch(/anonymous/);
    expect(privacy).toMatch(/without your IP address, without your browser type and without any cookie/);
    expect(privacy).toMatch(/No cookie is used/);
    expect(cookies).toMatch(/page-speed measurements .* use no cookie/);
  });

  it("state the period the code keeps them for", () => {
    expect(RETENTION_MS).toBe(28 * DAY);
    expect(SUMMARY_WINDOW_MS).toBe(28 * DAY);
    expect(privacy).toMatch(/keep them for at most 28 days and then delete them automatically/);
    expect(cookies).toMatch(/kept for at most 28 days/);
  });

  it("say that Global Privacy Control and Do Not Track turn them off", () => {
    expect(privacy).toMatch(/Global Privacy Control or Do Not Track/);
    expect(cookies).toMatch(/Global Privacy Control or Do Not Track/);
  });
});
