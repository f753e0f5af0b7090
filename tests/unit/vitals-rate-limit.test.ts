import { afterEach, describe, expect, it, vi } from "vitest";

const request = (forwardedFor?: string) =>
  new Request("http://localhost/vitals", {
    method: "POST",
    headers: forwardedFor ? { "X-Forwarded-For": forwardedFor } : {},
  });

/** The limiter as the server builds it from its environment at start-up. */
async function limiterWith(environment: Record<string, string>) {
  vi.resetModules();
  for (const [name, value] of Object.entries(environment)) vi.stubEnv(name, value);
  return (await import("~/vitals/rate-limit.server")).allowBeacon;
}

const count = (allow: (request: Request) => boolean, make: () => Request, times: number) =>
  Array.from({ length: times }, () => allow(make())).filter(Boolean).length;

afterEach(() => vi.unstubAllEnvs());

describe("allowBeacon", () => {
  it("gives each client behind a trusted proxy VITALS_RATE_LIMIT beacons per window", async () => {
    const allow = await limiterWith({ VITALS_RATE_LIMIT: "3", TRUST_PROXY: "1" });
    expect(count(allow, () => request("198.51.100.7"), 10)).toBe(3);
    expect(count(allow, () => request("198.51.100.8"), 10)).toBe(3);
  });

  it("lets clients it cannot tell apart share the site-wide budget, fifty times larger", async () => {
    const allow = await limiterWith({ VITALS_RATE_LIMIT: "3", TRUST_PROXY: "0" });
    // A forged X-Forwarded-For buys nothing without TRUST_PROXY: every request is "unknown".
    expect(count(allow, () => request(`203.0.113.${Math.floor(Math.random() * 250)}`), 200)).toBe(150);
  });

  it("is off with a limit of 0", async () => {
    const allow = await limiterWith({ VITALS_RATE_LIMIT: "0", TRUST_PROXY: "0" });
    expect(count(allow, () => request(), 500)).toBe(500);
  });
});
