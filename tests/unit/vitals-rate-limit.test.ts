import { describe, expect, it } from "vitest";
import { parseEnv } from "~/env.server";
import { createBeaconLimits, takeBeaconUnit } from "~/vitals/rate-limit.server";

/** The beacon budget as the server builds it from its environment; `client` null: unknown. */
function budgetWith(environment: Record<string, string>) {
  const limits = createBeaconLimits(parseEnv(environment));
  return (client: string | null) => takeBeaconUnit(limits, client);
}

/** How many of `times` beacons sent at once are allowed. */
const count = async (take: ReturnType<typeof budgetWith>, client: () => string | null, times: number) =>
  (await Promise.all(Array.from({ length: times }, () => take(client())))).filter((a) => a.allowed).length;

describe("beacon budget", () => {
  it("gives each known client VITALS_RATE_LIMIT beacons per window", async () => {
    const take = budgetWith({ VITALS_RATE_LIMIT: "3" });
    expect(await count(take, () => "198.51.100.7", 10)).toBe(3);
    expect(await count(take, () => "198.51.100.8", 10)).toBe(3);
    expect(await take("198.51.100.7")).toMatchObject({ allowed: false, by: "beacon budget" });
  });

  it("lets clients it cannot tell apart share the site-wide budget, fifty times larger", async () => {
    const take = budgetWith({ VITALS_RATE_LIMIT: "3" });
    expect(await count(take, () => null, 200)).toBe(150);
    expect(await take("198.51.100.9")).toMatchObject({ allowed: false, by: "site-wide beacon budget" });
  });

  it("is off with a limit of 0", async () => {
    const take = budgetWith({ VITALS_RATE_LIMIT: "0" });
    expect(await count(take, () => null, 500)).toBe(500);
  });
});
