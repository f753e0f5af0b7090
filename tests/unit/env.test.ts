import { describe, expect, it } from "vitest";
import { parseEnv, warnIfSiteUrlMissing } from "~/env.server";

describe("parseEnv", () => {
  it("takes a HEALTH_TOKEN of at least 16 characters, and says so of a shorter one", () => {
    expect(parseEnv({ HEALTH_TOKEN: " 0123456789abcdef " }).HEALTH_TOKEN).toBe("0123456789abcdef");
    const lines: string[] = [];
    expect(parseEnv({ HEALTH_TOKEN: "short" }, (line) => lines.push(line)).HEALTH_TOKEN).toBeUndefined();
    expect(lines.join("")).not.toContain("short");
    expect(lines).toEqual([
      expect.stringMatching(/^config: HEALTH_TOKEN is invalid \(must be at least 16 characters\)/),
    ]);
  });

  it("refuses a HEALTH_TOKEN that no Bearer header can carry, naming the variable only", () => {
    const lines: string[] = [];
    const token = "correct horse battery staple";
    expect(parseEnv({ HEALTH_TOKEN: token }, (line) => lines.push(line)).HEALTH_TOKEN).toBeUndefined();
    expect(lines).toEqual([
      expect.stringMatching(/^config: HEALTH_TOKEN is invalid \(must be printable ASCII without spaces\)/),
    ]);
    expect(lines.join("")).not.toContain("horse");
  });

  it("applies every default on an empty environment", () => {
    const lines: string[] = [];
    const env = parseEnv({}, (line) => lines.push(line));
    expect(lines).toEqual([]);
    expect(env).toMatchObject({
      PORT: 3000,
      EMAILJS_ORIGIN: "api.emailjs.com",
      ENQUIRY_STORE_DIR: "./data",
      ENQUIRY_RETENTION_DAYS: 90,
      ENQUIRY_SEND_INTERVAL_MS: 1000,
      ENQUIRY_RATE_LIMIT: 5,
      ENQUIRY_RATE_WINDOW: 600,
      ENQUIRY_FLOOD_LIMIT: 300,
      TRUST_PROXY: 0,
      SHUTDOWN_DEADLINE: 10,
      SITE_URL: "http://localhost:3000",
    });
    expect(env.EMAILJS_SERVICE_ID).toBeUndefined();
  });

  it("reads valid values and treats blank ones as unset", () => {
    const env = parseEnv({
      PORT: "8080",
      EMAILJS_SERVICE_ID: " service_1 ",
      EMAILJS_TEMPLATE_ID: "",
      ENQUIRY_RATE_LIMIT: "0",
      TRUST_PROXY: "1",
      SITE_URL: "https://www.example.in/",
    });
    expect(env.PORT).toBe(8080);
    expect(env.EMAILJS_SERVICE_ID).toBe("service_1");
    expect(env.EMAILJS_TEMPLATE_ID).toBeUndefined();
    expect(env.ENQUIRY_RATE_LIMIT).toBe(0);
    expect(env.TRUST_PROXY).toBe(1);
    expect(env.SITE_URL).toBe("https://www.example.in");
  });

  it("counts proxies in TRUST_PROXY and reads the old true/false with a deprecation line", () => {
    expect(parseEnv({ TRUST_PROXY: "2" }).TRUST_PROXY).toBe(2);
    for (const [raw, count] of [
      ["true", 1],
      ["false", 0],
    ] as const) {
      const lines: string[] = [];
      expect(parseEnv({ TRUST_PROXY: raw }, (line) => lines.push(line)).TRUST_PROXY).toBe(count);
      expect(lines).toEqual([
        `config: TRUST_PROXY=${raw} is deprecated; it now takes the number of proxies in front: use TRUST_PROXY=${count}`,
      ]);
    }
    const lines: string[] = [];
    expect(parseEnv({ TRUST_PROXY: "yes" }, (line) => lines.push(line)).TRUST_PROXY).toBe(0);
    expect(lines[0]).toMatch(/^config: TRUST_PROXY="yes" is invalid/);
  });

  it("logs one line naming each bad variable and keeps serving with its default", () => {
    const lines: string[] = [];
    const env = parseEnv(
      { ENQUIRY_RATE_LIMIT: "lots", SITE_URL: "not a url", EMAILJS_ORIGIN: "https://api.emailjs.com/" },
      (line) => lines.push(line),
    );
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^config: EMAILJS_ORIGIN=/);
    expect(lines.join("\n")).toMatch(/ENQUIRY_RATE_LIMIT="lots" is invalid/);
    expect(lines.join("\n")).toMatch(/SITE_URL="not a url" is invalid/);
    expect(env.ENQUIRY_RATE_LIMIT).toBe(5);
    expect(env.SITE_URL).toBe("http://localhost:3000");
    expect(env.EMAILJS_ORIGIN).toBe("api.emailjs.com");
  });

  it("never logs NOTICE_SECRET's value, not even a wrong one", () => {
    const lines: string[] = [];
    const env = parseEnv({ NOTICE_SECRET: "short-secret" }, (line) => lines.push(line));
    expect(env.NOTICE_SECRET).toBeUndefined();
    expect(lines).toEqual([
      expect.stringMatching(/^config: NOTICE_SECRET is invalid \(must be at least 32 characters/),
    ]);
    expect(lines.join("\n")).not.toContain("short-secret");
    const good = "k".repeat(32);
    expect(parseEnv({ NOTICE_SECRET: ` ${good} ` }).NOTICE_SECRET).toBe(good);
  });

  it("reads PRIVACY_CONTACT as an address or a name and an address, and never logs a wrong one", () => {
    expect(parseEnv({}).PRIVACY_CONTACT).toBeUndefined();
    expect(parseEnv({ PRIVACY_CONTACT: " privacy@nirmaan.digital " }).PRIVACY_CONTACT).toEqual({
      email: "privacy@nirmaan.digital",
    });
    expect(parseEnv({ PRIVACY_CONTACT: "Asha Rao <privacy@nirmaan.digital>" }).PRIVACY_CONTACT).toEqual({
      name: "Asha Rao",
      email: "privacy@nirmaan.digital",
    });
    for (const wrong of [
      "Asha Rao",
      "asha@",
      "Asha <asha@example.in?cc=x@example.in>",
      "<<x>> <a@example.in>",
    ]) {
      const lines: string[] = [];
      expect(
        parseEnv({ PRIVACY_CONTACT: wrong }, (line) => lines.push(line)).PRIVACY_CONTACT,
      ).toBeUndefined();
      expect(lines).toEqual([
        "config: PRIVACY_CONTACT is invalid (must be an e-mail address, or a name and an address, such as Asha Rao <privacy@example.in>); using the default instead",
      ]);
    }
  });

  it("warns once at start about a missing SITE_URL, only in production", () => {
    const warnings = (source: Record<string, string>) => {
      const lines: string[] = [];
      warnIfSiteUrlMissing(
        source,
        parseEnv(source, () => {}),
        (line) => lines.push(line),
      );
      return lines;
    };
    expect(warnings({ NODE_ENV: "production" })).toEqual([
      "config: SITE_URL is not set, so canonical links, the sitemap and Open Graph tags point at http://localhost:3000; set SITE_URL to the site's public origin, e.g. https://www.example.com",
    ]);
    expect(warnings({ NODE_ENV: "production", SITE_URL: "  " })).toHaveLength(1);
    expect(warnings({ NODE_ENV: "production", SITE_URL: "https://www.example.in" })).toEqual([]);
    expect(warnings({ NODE_ENV: "development" })).toEqual([]);
  });
});
