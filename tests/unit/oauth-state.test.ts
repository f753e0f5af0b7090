import { describe, expect, it } from "vitest";
import { createStateSigner, STATE_TTL_MS } from "../../server/admin/oauth-state";

const secret = "a-client-secret-of-forty-characters-0000";

describe("the OAuth state", () => {
  it("is redeemed once: a second use of the same state is refused", () => {
    const signer = createStateSigner(secret);
    const state = signer.issue();
    expect(signer.redeem(state)).toBe("ok");
    expect(signer.redeem(state)).toBe("used");
  });

  it("is refused when changed, signed with another secret, or missing", () => {
    const signer = createStateSigner(secret);
    const [nonce, issuedAt, mac] = signer.issue().split(".");
    expect(signer.redeem(`${nonce}x.${issuedAt}.${mac}`)).toBe("forged");
    expect(signer.redeem(`${nonce}.${Number(issuedAt) + 1}.${mac}`)).toBe("forged");
    expect(signer.redeem(createStateSigner("another-secret-of-forty-characters-00000").issue())).toBe(
      "forged",
    );
    expect(signer.redeem(undefined)).toBe("malformed");
    expect(signer.redeem("no-dots")).toBe("malformed");
  });

  it("expires ten minutes after it was issued", () => {
    let now = 1_800_000_000_000;
    const signer = createStateSigner(secret, () => now);
    const fresh = signer.issue();
    const stale = signer.issue();
    now += STATE_TTL_MS;
    expect(signer.redeem(fresh)).toBe("ok");
    now += 1;
    expect(signer.redeem(stale)).toBe("expired");
  });
});
