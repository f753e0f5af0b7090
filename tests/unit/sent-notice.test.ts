import { createHmac } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { NOTICE_PARAMETER } from "~/enquiry/notices";
import { createSentNotices, NOTICE_TTL_MS, type SentNoticeOptions } from "~/enquiry/sent-notice.server";

const secret = "a-shared-secret-of-at-least-32-characters";
const REF = "NRM-7KQ2-M9XD";
let storeDir = "";
let clock = Date.now();
const lines: string[] = [];

beforeEach(() => {
  storeDir = mkdtempSync(join(tmpdir(), "notices-"));
  clock = Date.now();
  lines.length = 0;
});

afterEach(() => {
  rmSync(storeDir, { recursive: true, force: true });
});

function notices(options: Partial<SentNoticeOptions> = {}) {
  return createSentNotices({
    secret,
    storeDir,
    now: () => clock,
    log: (line) => lines.push(line),
    ...options,
  });
}

function tokenOf(landingUrl: string): string {
  return new URL(landingUrl, "http://localhost").searchParams.get(NOTICE_PARAMETER) ?? "";
}

describe("sent notices", () => {
  it("lands the sender on the form with a token that shows the notice and the reference once", async () => {
    const service = notices();
    const url = service.landingUrl(REF);
    expect(url).toMatch(
      /^\/\?enquiry=[A-Za-z0-9_-]{22}\.[0-9a-z]+\.NRM-7KQ2-M9XD\.[A-Za-z0-9_-]{22}#contact$/,
    );
    const notice = await service.redeem(tokenOf(url));
    expect(notice).toEqual({ kind: "sent", id: tokenOf(url).split(".")[0], reference: REF });
    expect(await service.redeem(tokenOf(url))).toBeNull();
    expect(lines).toEqual([]);
  });

  it("gives every sender a token of their own", async () => {
    const service = notices();
    const [a, b] = [service.landingUrl(REF), service.landingUrl(REF)];
    expect(a).not.toBe(b);
    expect(await service.redeem(tokenOf(a))).not.toBeNull();
    expect(await service.redeem(tokenOf(b))).not.toBeNull();
  });

  it("shows one of two simultaneous requests for the same URL the notice, not both", async () => {
    const service = notices();
    const token = tokenOf(service.landingUrl(REF));
    const results = await Promise.all([service.redeem(token), service.redeem(token)]);
    expect(results.filter((notice) => notice !== null)).toHaveLength(1);
  });

  it("cannot be forged by editing the token", async () => {
    const service = notices();
    const token = tokenOf(service.landingUrl(REF));
    const [id = "", expires = "", reference = "", mac = ""] = token.split(".");
    const flip = (text: string, at: number) =>
      `${text.slice(0, at)}${text[at] === "A" ? "B" : "A"}${text.slice(at + 1)}`;
    const edited = [
      `${flip(id, 0)}.${expires}.${reference}.${mac}`,
      `${id}.${(Number.parseInt(expires, 36) + 3600).toString(36)}.${reference}.${mac}`,
      `${id}.${expires}.NRM-7KQ2-M9XE.${mac}`,
      `${id}.${expires}.${mac}`,
      `${id}.${expires}.${reference}.${flip(mac, 0)}`,
      // The last base64 character carries spare bits: another spelling of the same bytes.
      `${id}.${expires}.${reference}.${mac.slice(0, -1)}${mac.at(-1) === "A" ? "B" : "A"}`,
      `${id}.${expires}.${reference}`,
      `${id}..${reference}.${mac}`,
      `${token}x`,
      "sent",
      "",
    ];
    for (const candidate of edited) expect(await service.redeem(candidate), candidate).toBeNull();
    expect(await service.redeem(null)).toBeNull();
    // The genuine token still works: the attempts used nothing up.
    expect(await service.redeem(token)).not.toBeNull();
  });

  it("shows the notice of a token the release before the reference issued, without a reference", async () => {
    const id = "AAAAAAAAAAAAAAAAAAAAAA";
    const expires = Math.ceil((clock + NOTICE_TTL_MS) / 1000).toString(36);
    const mac = createHmac("sha256", secret)
      .update(`enquiry-notice.v1.${id}.${expires}`)
      .digest()
      .subarray(0, 16)
      .toString("base64url");
    expect(await notices().redeem(`${id}.${expires}.${mac}`)).toEqual({ kind: "sent", id });
  });

  it("refuses to sign anything but a reference", () => {
    expect(() => notices().landingUrl("NRM-7KQ2-M9XD#x")).toThrow(/not an enquiry reference/);
  });

  it("does not read another key's tokens", async () => {
    const token = tokenOf(notices({ secret: "another-secret-of-at-least-32-characters" }).landingUrl(REF));
    expect(await notices().redeem(token)).toBeNull();
  });

  it("expires", async () => {
    const service = notices();
    const token = tokenOf(service.landingUrl(REF));
    clock += NOTICE_TTL_MS + 1000;
    expect(await service.redeem(token)).toBeNull();
  });

  it("is single-use across servers that share the data folder and the secret", async () => {
    const token = tokenOf(notices().landingUrl(REF));
    expect(await notices().redeem(token)).not.toBeNull();
    expect(await notices().redeem(token)).toBeNull();
    expect(readdirSync(join(storeDir, "notices"))).toEqual([token.split(".")[0]]);
  });

  it("without a secret, signs with a key of its own and says once that replicas need NOTICE_SECRET", async () => {
    const service = notices({ secret: undefined });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^config: NOTICE_SECRET is not set, .* set NOTICE_SECRET to one random value .* on every server$/,
    );
    const token = tokenOf(service.landingUrl(REF));
    expect(await service.redeem(token)).not.toBeNull();
    expect(await notices({ secret: undefined }).redeem(tokenOf(service.landingUrl(REF)))).toBeNull();
  });

  it("with a data folder that is a file, stays single-use on this server and says so once", async () => {
    rmSync(storeDir, { recursive: true });
    writeFileSync(storeDir, "not a folder");
    try {
      await checkUnwritable();
    } finally {
      rmSync(storeDir);
      storeDir = mkdtempSync(join(tmpdir(), "notices-"));
    }
  });

  it("removes the markers of expired tokens and leaves other entries alone", async () => {
    const service = notices();
    expect(await service.redeem(tokenOf(service.landingUrl(REF)))).not.toBeNull();
    const folder = join(storeDir, "notices");
    const [marker = ""] = readdirSync(folder);
    writeFileSync(join(folder, "README"), "an operator's note");
    const old = (Date.now() - 2 * NOTICE_TTL_MS) / 1000;
    utimesSync(join(folder, marker), old, old);
    utimesSync(join(folder, "README"), old, old);
    clock += 2 * 60_000;
    expect(await service.redeem(tokenOf(service.landingUrl(REF)))).not.toBeNull();
    await expect.poll(() => existsSync(join(folder, marker))).toBe(false);
    expect(existsSync(join(folder, "README"))).toBe(true);
    expect(readdirSync(folder)).toHaveLength(2);
  });
});

async function checkUnwritable() {
  const service = notices();
  const tokens = [tokenOf(service.landingUrl(REF)), tokenOf(service.landingUrl(REF))];
  for (const token of tokens) {
    expect(await service.redeem(token)).not.toBeNull();
    expect(await service.redeem(token)).toBeNull();
  }
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^notices: cannot write .* single-use on this server only/);
}
