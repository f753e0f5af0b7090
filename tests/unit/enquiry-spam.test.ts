import { describe, expect, it, vi } from "vitest";
import { isHeadless } from "~/enquiry/headless.server";
import { createEnquiryLimits } from "~/enquiry/limits.server";
import { SPAM_STATUS, spamReason, trapReason } from "~/enquiry/spam.server";
import { parseEnv } from "~/env.server";
import { isBlocked, parseBlockList } from "~/lead-parts/block-list.server";
import { isPerson, parsePersonQuery, phoneDigits } from "~/lead-parts/person";

const enquiry = {
  name: "Asha Rao",
  email: "Asha.Rao@Mail.Example.in",
  countryCode: "91",
  phoneNumber: "9876543210",
  message: "",
};

function list(text: string) {
  const parsed = parseBlockList(text);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.list;
}

describe("people named by an operator", () => {
  it("reads an address in any case and a phone number with spaces, a plus or a trunk zero", () => {
    expect(parsePersonQuery(" ASHA@example.IN ")).toEqual({ kind: "email", address: "asha@example.in" });
    expect(parsePersonQuery("+91 98765-43210")).toEqual({ kind: "phone", digits: "919876543210" });
    expect(parsePersonQuery("919876543210")).toEqual({ kind: "phone", digits: "919876543210" });
    for (const bad of ["asha", "asha@", "@example.in", "12345", "91-98x", "a@b@c.in", ""]) {
      expect(parsePersonQuery(bad), bad).toBeNull();
    }
  });

  it("reads text built to make a pattern backtrack in one pass: a 256 KB argument is no person", () => {
    // Each took minutes with the old address pattern (quadratic in the dots after the `@`).
    const size = 256 * 1024;
    for (const text of [`a@${".".repeat(size)}@`, `a@${"a.".repeat(size / 2)},`, `+${"9".repeat(size)}`]) {
      expect(parsePersonQuery(text)).toBeNull();
    }
    const longest = `${"a".repeat(64)}@${"b".repeat(186)}.in`;
    expect(parsePersonQuery(longest)).toEqual({ kind: "email", address: longest });
    expect(parsePersonQuery(`a${longest}`)).toBeNull();
    expect(parsePersonQuery("asha@.in")).toBeNull();
    expect(parsePersonQuery("asha@in.")).toBeNull();
    expect(parsePersonQuery("asha@mail.example.in")).toEqual({
      kind: "email",
      address: "asha@mail.example.in",
    });
  });

  it("matches a phone by country code and number, with or without a national trunk zero", () => {
    expect(phoneDigits({ countryCode: "91", phoneNumber: "09876543210" })).toBe("919876543210");
    expect(phoneDigits({ countryCode: "044", phoneNumber: "7700900123" })).toBe("447700900123");
    const phone = { kind: "phone", digits: "919876543210" } as const;
    expect(isPerson(enquiry, phone)).toBe(true);
    expect(isPerson({ ...enquiry, countryCode: "1" }, phone)).toBe(false);
    expect(isPerson(enquiry, { kind: "email", address: "asha.rao@mail.example.in" })).toBe(true);
    expect(isPerson(enquiry, { kind: "email", address: "rao@mail.example.in" })).toBe(false);
  });
});

describe("ENQUIRY_BLOCK_LIST", () => {
  it("blocks a whole address, case-insensitively", () => {
    expect(isBlocked(list("asha.rao@mail.example.in"), enquiry)).toBe(true);
    expect(isBlocked(list("ASHA.RAO@MAIL.EXAMPLE.IN"), enquiry)).toBe(true);
    expect(isBlocked(list("asha@mail.example.in"), enquiry)).toBe(false);
  });

  it("ignores a +tag in the local part, on either side", () => {
    expect(isBlocked(list("spam@example.com"), { ...enquiry, email: "spam+x@example.com" })).toBe(true);
    expect(isBlocked(list("spam@example.com"), { ...enquiry, email: "SPAM+news+2@Example.com" })).toBe(true);
    expect(isBlocked(list("spam+list@example.com"), { ...enquiry, email: "spam@example.com" })).toBe(true);
    expect(isBlocked(list("spam@example.com"), { ...enquiry, email: "spammer@example.com" })).toBe(false);
  });

  it("folds fullwidth and compatibility forms (NFKC) before comparing", () => {
    expect(isBlocked(list("spam@example.com"), { ...enquiry, email: "spam@\uFF45xample.com" })).toBe(true);
    expect(
      isBlocked(list("spam@example.com"), { ...enquiry, email: "\uFF53\uFF50\uFF41\uFF4D@example.com" }),
    ).toBe(true);
    expect(isBlocked(list("@example.com"), { ...enquiry, email: "x@\uFF25XAMPLE.com" })).toBe(true);
    expect(isBlocked(list("@example.com"), { ...enquiry, email: "x@sub.exa\uFB01le.com" })).toBe(false);
    expect(isBlocked(list("@fine.example"), { ...enquiry, email: "x@\uFB01ne.example" })).toBe(true);
  });

  it("blocks a domain and its sub-domains, never a domain that merely ends the same", () => {
    expect(isBlocked(list("@example.in"), enquiry)).toBe(true);
    expect(isBlocked(list("@Mail.Example.IN"), enquiry)).toBe(true);
    expect(isBlocked(list("@ample.in"), enquiry)).toBe(false);
    expect(isBlocked(list("@other.example.in"), enquiry)).toBe(false);
    expect(isBlocked(list("@example.in"), { ...enquiry, email: "x@badexample.in" })).toBe(false);
  });

  it("blocks a phone number written as digits with its country code", () => {
    expect(isBlocked(list("919876543210"), enquiry)).toBe(true);
    expect(isBlocked(list("+919876543210"), { ...enquiry, phoneNumber: "09876543210" })).toBe(true);
    expect(isBlocked(list("9876543210"), enquiry)).toBe(false);
  });

  it("reads several entries, ignoring blanks, and names a bad entry by position only", () => {
    const several = list(" spam@example.com , @bulk.example ,, 919876543210 ,");
    expect(several.people).toHaveLength(2);
    expect(several.domains).toEqual(["bulk.example"]);
    expect(isBlocked(several, { ...enquiry, email: "x@y.bulk.example" })).toBe(true);
    expect(isBlocked(several, { ...enquiry, phoneNumber: "1111111111" })).toBe(false);
    const bad = parseBlockList("@example.in, secret-person, 91");
    expect(bad).toEqual({ ok: false, error: expect.stringMatching(/^entry 2 of 3 is not/) });
    expect(JSON.stringify(bad)).not.toContain("secret-person");
  });
});

describe("the headless rule", () => {
  const desktop =
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
  it("catches a User-Agent naming a headless browser, a missing one and navigator.webdriver", () => {
    expect(isHeadless(desktop.replace("Chrome/", "HeadlessChrome/"), false)).toBe(true);
    expect(isHeadless("Mozilla/5.0 (Unknown; Linux x86_64) AppleWebKit/538.1 PhantomJS/2.1.1", false)).toBe(
      true,
    );
    expect(isHeadless("Mozilla/5.0 Headless Firefox", false)).toBe(true);
    expect(isHeadless(null, false)).toBe(true);
    expect(isHeadless("  ", false)).toBe(true);
    expect(isHeadless(desktop, true)).toBe(true);
  });

  it("lets a desktop browser and plain HTTP tools through", () => {
    expect(isHeadless(desktop, false)).toBe(false);
    expect(isHeadless("curl/8.5.0", false)).toBe(false);
    expect(isHeadless("Wget/1.21.4", false)).toBe(false);
  });
});

describe("which filter an enquiry trips", () => {
  const rules = { blockList: list("@mail.example.in"), blockHeadless: true };
  const fields = (extra: Record<string, string[]> = {}) =>
    new Map<string, string[]>(Object.entries({ company_website: [""], ...extra }));
  const request = (userAgent?: string) =>
    new Request("http://localhost/", { headers: userAgent ? { "User-Agent": userAgent } : {} });

  it("tells a filled, repeated and missing hidden field apart", () => {
    expect(trapReason(fields())).toBeNull();
    expect(trapReason(fields({ company_website: ["https://spam.example"] }))).toBe("honeypot");
    expect(trapReason(fields({ company_website: ["", ""] }))).toBe("honeypot");
    expect(trapReason(new Map())).toBe("missing-field");
  });

  it("checks the honeypot, then the headless rule, then the block list; each off when not configured", () => {
    const clean = { ...enquiry, email: "asha@example.com" };
    expect(spamReason(rules, request("curl/8"), fields(), clean)).toBeNull();
    expect(spamReason(rules, request("curl/8"), fields(), enquiry)).toBe("blocklist");
    expect(spamReason(rules, request(), fields(), enquiry)).toBe("headless");
    expect(spamReason(rules, request("curl/8"), fields({ webdriver: ["1"] }), clean)).toBe("headless");
    expect(spamReason(rules, request(), new Map(), enquiry)).toBe("missing-field");
    const off = { blockList: list(""), blockHeadless: false };
    expect(spamReason(off, request(), fields({ webdriver: ["1"] }), enquiry)).toBeNull();
  });

  it("answers as the spec's catalogue says", () => {
    expect(SPAM_STATUS).toEqual({ honeypot: 303, "missing-field": 303, headless: 451, blocklist: 403 });
  });
});

describe("ENQUIRY_THROTTLE", () => {
  it("accepts one enquiry per client per window and says when the next may come", async () => {
    vi.useFakeTimers({ toFake: ["Date", "setTimeout", "clearTimeout"] });
    try {
      const { throttle } = createEnquiryLimits({
        ENQUIRY_RATE_LIMIT: 0,
        ENQUIRY_RATE_WINDOW: 600,
        ENQUIRY_FLOOD_LIMIT: 0,
        ENQUIRY_THROTTLE: 60,
      });
      expect((await throttle.take("198.51.100.1")).allowed).toBe(true);
      vi.advanceTimersByTime(15_000);
      expect(await throttle.take("198.51.100.1")).toEqual({
        allowed: false,
        retryAfterSeconds: 45,
        by: "throttle",
      });
      expect((await throttle.take("198.51.100.2")).allowed).toBe(true);
      vi.advanceTimersByTime(45_000);
      expect((await throttle.take("198.51.100.1")).allowed).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("the protections' settings", () => {
  it("are all off by default, and the quarantine keeps 30 days", () => {
    const lines: string[] = [];
    const env = parseEnv({}, (line) => lines.push(line));
    expect(lines).toEqual([]);
    expect(env.ENQUIRY_BLOCK_LIST).toEqual({ people: [], domains: [] });
    expect(env.ENQUIRY_BLOCK_HEADLESS).toBe(false);
    expect(env.ENQUIRY_THROTTLE).toBe(0);
    expect(env.ENQUIRY_SPAM_RETENTION_DAYS).toBe(30);
  });

  it("read valid values", () => {
    const env = parseEnv({
      ENQUIRY_BLOCK_LIST: "@example.in,919876543210",
      ENQUIRY_BLOCK_HEADLESS: "1",
      ENQUIRY_THROTTLE: "60",
      ENQUIRY_SPAM_RETENTION_DAYS: "7",
    });
    expect(isBlocked(env.ENQUIRY_BLOCK_LIST, enquiry)).toBe(true);
    expect(env.ENQUIRY_BLOCK_HEADLESS).toBe(true);
    expect(env.ENQUIRY_THROTTLE).toBe(60);
    expect(env.ENQUIRY_SPAM_RETENTION_DAYS).toBe(7);
  });

  it("log one line per bad value naming the variable, and leave that protection off", () => {
    const lines: string[] = [];
    const env = parseEnv(
      { ENQUIRY_BLOCK_LIST: "@example.in, someone", ENQUIRY_BLOCK_HEADLESS: "yes", ENQUIRY_THROTTLE: "1m" },
      (line) => lines.push(line),
    );
    expect(lines).toEqual([
      "config: ENQUIRY_BLOCK_LIST is invalid (entry 2 of 2 is not an e-mail address, an @domain or a phone number in digits with its country code); this protection stays off until it is fixed",
      'config: ENQUIRY_BLOCK_HEADLESS="yes" is invalid (must be 1 (on) or 0 (off)); this protection stays off until it is fixed',
      'config: ENQUIRY_THROTTLE="1m" is invalid (must be a number of seconds); this protection stays off until it is fixed',
    ]);
    expect(env.ENQUIRY_BLOCK_LIST).toEqual({ people: [], domains: [] });
    expect(isBlocked(env.ENQUIRY_BLOCK_LIST, enquiry)).toBe(false);
    expect(env.ENQUIRY_BLOCK_HEADLESS).toBe(false);
    expect(env.ENQUIRY_THROTTLE).toBe(0);
  });
});
