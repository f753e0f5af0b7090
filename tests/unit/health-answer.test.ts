import { describe, expect, it } from "vitest";
import { healthAnswer } from "../../server/healthz";

describe("healthAnswer (/healthz)", () => {
  const details = () => ({ uptime: 12, store: "ok", leads: { pending: 1 } });
  const token = "s3cret-health-token-0123";

  it("tells anyone only ok or draining", async () => {
    expect(await healthAnswer({ draining: false, authorization: null, token, details })).toEqual({
      status: 200,
      body: '{"status":"ok"}',
    });
    expect(await healthAnswer({ draining: true, authorization: "Bearer wrong", token, details })).toEqual({
      status: 503,
      body: '{"status":"draining"}',
    });
    // No token configured: no details, whatever is presented.
    expect(
      (await healthAnswer({ draining: false, authorization: "Bearer ", token: undefined, details })).body,
    ).toBe('{"status":"ok"}');
  });

  it("gives the details for the bearer token", async () => {
    const answer = await healthAnswer({ draining: false, authorization: `Bearer ${token}`, token, details });
    expect(JSON.parse(answer.body)).toEqual({
      status: "ok",
      uptime: 12,
      store: "ok",
      leads: { pending: 1 },
      draining: false,
    });
  });
});
