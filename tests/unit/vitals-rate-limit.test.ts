import { describe, expect, it } from "vitest";
import { parseEnv } from "~/env.server";
import { createBeaconBudget } from "~/vitals/rate-limit.server";

/** The beacon budget as the server builds it from its environment; `client` null: unknown. */
function budgetWith(environment: Record<string, string>) {
  const budget = createBeaconBudget(parseEnv(environment));
  return (client: string | null) => {
    if (!budget.check(client).allowed) return false;
    budget.record(client);
    return true;
  };
}

const count = (allow: (client: string | null) => boolean, client: () => string | null, times: number) =>
  Array.from({ length: times }, () => allow(client())).filter(Boolean).length;

describe("beacon budget", () => {
  it("gives each known client VITALS_RATE_LIMIT beacons per window", () => {
    const allow = budgetWith({ VITALS_RATE_LIMIT: "3" });
    expect(count(allow, () => "198.51.100.7", 10)).toBe(3);
    expect(count(allow, () => "198.51.100.8", 10)).toBe(3);
  });

  it("lets clients it cannot tell apart share the site-wide budget, fifty times larger", () => {
    const allow = budgetWith({ VITALS_RATE_LIMIT: "3" });
    expect(count(allow, () => null, 200)).toBe(150);
  });

  it("is off with a limit of 0", () => {
    const allow = budgetWith({ VITALS_RATE_LIMIT: "0" });
    expect(count(allow, () => null, 500)).toBe(500);
  });
});
