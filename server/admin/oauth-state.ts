/**
 * The `state` of /admin's GitHub sign-in: signed by the server (HMAC-SHA256 with the OAuth app's
 * secret, which every replica holds), valid for ten minutes, and redeemed once: a callback whose
 * state was not issued here, is stale, or was already used is refused.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export const STATE_TTL_MS = 10 * 60 * 1000;

export type Redeemed = "ok" | "malformed" | "forged" | "expired" | "used";

export interface StateSigner {
  issue(): string;
  redeem(state: string | undefined): Redeemed;
}

/**
 * Single use holds per process: a state is remembered until it expires. Behind several replicas
 * a replayed callback could reach another replica within those ten minutes; GitHub itself refuses
 * a code used twice, so the replay gets no token either way.
 */
export function createStateSigner(secret: string, now: () => number = Date.now): StateSigner {
  const used = new Map<string, number>();
  const mac = (payload: string) =>
    createHmac("sha256", `oauth-state:${secret}`).update(payload).digest("base64url");
  return {
    issue() {
      const payload = `${randomBytes(18).toString("base64url")}.${now()}`;
      return `${payload}.${mac(payload)}`;
    },
    redeem(state) {
      const parts = state?.split(".") ?? [];
      if (parts.length !== 3 || !state) return "malformed";
      const [nonce = "", issuedAt = "", signature = ""] = parts;
      const expected = Buffer.from(mac(`${nonce}.${issuedAt}`));
      const given = Buffer.from(signature);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return "forged";
      const age = now() - Number(issuedAt);
      for (const [key, expiry] of used) if (expiry <= now()) used.delete(key);
      if (!(age >= 0 && age <= STATE_TTL_MS)) return "expired";
      if (used.has(nonce)) return "used";
      used.set(nonce, Number(issuedAt) + STATE_TTL_MS);
      return "ok";
    },
  };
}
