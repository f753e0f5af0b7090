import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { parseEnv, siteUrlGiven, warnIfLeadWebhookUnencrypted, warnIfSiteUrlMissing } from "~/env.server";

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
      ALERT_AFTER_MINUTES: 30,
    });
    expect(env.EMAILJS_SERVICE_ID).toBeUndefined();
    expect(env.LEAD_WEBHOOK_URL).toBeUndefined();
    expect(env.ALERT_WEBHOOK_URL).toBeUndefined();
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

  it("takes SITE_URL as an origin only, and refuses anything more in one line that names the fallback", () => {
    expect(parseEnv({ SITE_URL: "https://WWW.Example.in:443/" }).SITE_URL).toBe("https://www.example.in");
    for (const value of [
      "https://www.example.in/site",
      "https://www.example.in/?ref=x",
      "https://www.example.in/#top",
    ]) {
      const lines: string[] = [];
      const env = parseEnv({ SITE_URL: value }, (line) => lines.push(line));
      expect(env.SITE_URL).toBe("http://localhost:3000");
      expect(lines).toEqual([
        expect.stringMatching(
          /^config: SITE_URL=".*" is invalid \(must .*\); canonical links, the sitemap and Open Graph name http:\/\/localhost:3000, and in production \/admin's GitHub sign-in stays off, until it is fixed$/,
        ),
      ]);
      expect(siteUrlGiven({ SITE_URL: value })).toBe(false);
    }
    const lines: string[] = [];
    parseEnv({ SITE_URL: "https://editor:hunter2@www.example.in" }, (line) => lines.push(line));
    expect(lines).toEqual([
      expect.stringMatching(/^config: SITE_URL is invalid \(must not hold a user name or password/),
    ]);
    expect(lines.join("")).not.toContain("hunter2");
    expect(siteUrlGiven({ SITE_URL: "https://www.example.in/" })).toBe(true);
    expect(siteUrlGiven({ SITE_URL: " " })).toBe(false);
    expect(siteUrlGiven({})).toBe(false);
  });

  describe("webhooks", () => {
    const secret = `whsec_${randomBytes(32).toString("base64")}`;
    const parse = (source: Record<string, string>) => {
      const lines: string[] = [];
      return { env: parseEnv(source, (line) => lines.push(line)), lines };
    };

    it("takes an https webhook URL with its whsec_ secret", () => {
      const { env, lines } = parse({
        LEAD_WEBHOOK_URL: " https://crm.example.in/hooks/leads?key=abc ",
        LEAD_WEBHOOK_SECRET: secret,
        ALERT_WEBHOOK_URL: "https://hooks.slack.com/services/T0/B0/t0ken",
        ALERT_AFTER_MINUTES: "45",
      });
      expect(lines).toEqual([]);
      expect(env.LEAD_WEBHOOK_URL).toBe("https://crm.example.in/hooks/leads?key=abc");
      expect(env.LEAD_WEBHOOK_SECRET).toBe(secret);
      expect(env.ALERT_WEBHOOK_URL).toBe("https://hooks.slack.com/services/T0/B0/t0ken");
      expect(env.ALERT_AFTER_MINUTES).toBe(45);
    });

    it.each([
      "http://127.0.0.1:5678/webhook/leads",
      "http://127.9.9.9/",
      "http://10.1.2.3/",
      "http://172.16.0.5/",
      "http://172.31.255.254/",
      "http://192.168.1.20:5678/",
      "http://[::1]:5678/",
      "http://[fd00::5]/",
      "http://[fc12::5]/",
      "http://[::ffff:10.0.0.7]/",
      "http://localhost:5678/webhook/leads",
      "http://LOCALHOST/",
    ])("takes plain http to a loopback or private address: %s", (url) => {
      const { env, lines } = parse({
        LEAD_WEBHOOK_URL: url,
        LEAD_WEBHOOK_SECRET: secret,
        ALERT_WEBHOOK_URL: url,
      });
      expect(lines).toEqual([]);
      expect(env.LEAD_WEBHOOK_URL).toBeDefined();
      expect(env.ALERT_WEBHOOK_URL).toBeDefined();
    });

    it.each([
      ["http://crm.example.in/t0ken", "crm.example.in"],
      ["http://8.8.8.8/t0ken", "8.8.8.8"],
      ["http://172.32.0.1/t0ken", "172.32.0.1"],
      ["http://192.169.0.1/t0ken", "192.169.0.1"],
      ["http://[2001:db8::1]/t0ken", "[2001:db8::1]"],
      ["http://n8n.localhost.example.com:5678/t0ken", "n8n.localhost.example.com:5678"],
    ])("refuses plain http to %s, naming the host only", (url, host) => {
      for (const name of ["LEAD_WEBHOOK_URL", "ALERT_WEBHOOK_URL"] as const) {
        const { env, lines } = parse({ [name]: url, LEAD_WEBHOOK_SECRET: secret });
        expect(env[name]).toBeUndefined();
        expect(lines[0]).toBe(
          `config: ${name} is invalid (plain http is accepted only to a loopback or private address, and ${host} is neither; use https); ${name === "ALERT_WEBHOOK_URL" ? "no alert is sent" : "no lead is sent to the webhook"} until it is fixed`,
        );
        expect(lines.join("\n")).not.toContain("t0ken");
      }
    });

    it.each([
      ["http://localhost.:5678/t0ken", "localhost.:5678"],
      ["http://LOCALHOST./t0ken", "localhost."],
      ["http://localhost..:5678/t0ken", "localhost..:5678"],
    ])("refuses plain http to %s: the resolver asks the DNS, not /etc/hosts, for it", (url, host) => {
      for (const name of ["LEAD_WEBHOOK_URL", "ALERT_WEBHOOK_URL"] as const) {
        const { env, lines } = parse({ [name]: url, LEAD_WEBHOOK_SECRET: secret });
        expect(env[name]).toBeUndefined();
        expect(lines[0]).toBe(
          `config: ${name} is invalid (plain http is accepted only to a loopback or private address, and ${host} is looked up through the DNS, not /etc/hosts: write localhost without the final dot, or 127.0.0.1); ${name === "ALERT_WEBHOOK_URL" ? "no alert is sent" : "no lead is sent to the webhook"} until it is fixed`,
        );
        expect(lines.join("\n")).not.toContain("t0ken");
      }
    });

    it("takes https to localhost. (TLS checks the name, wherever the DNS points it)", () => {
      const { env, lines } = parse({ ALERT_WEBHOOK_URL: "https://localhost.:8443/hook" });
      expect(lines).toEqual([]);
      expect(env.ALERT_WEBHOOK_URL).toBe("https://localhost.:8443/hook");
    });

    it.each(["not a url", "ftp://files.example.in/t0ken", "hooks.slack.com/services/t0ken"])(
      "refuses %j as no https URL, without showing it",
      (url) => {
        const { env, lines } = parse({ ALERT_WEBHOOK_URL: url });
        expect(env.ALERT_WEBHOOK_URL).toBeUndefined();
        expect(lines).toEqual([
          "config: ALERT_WEBHOOK_URL is invalid (must be an https URL); no alert is sent until it is fixed",
        ]);
      },
    );

    it.each([
      ["a secret without whsec_", randomBytes(32).toString("base64"), /must start with whsec_/],
      [
        "one that is not base64",
        "whsec_not*base64*at*all*but*long*enough*to*count",
        /base64 key of at least 24 bytes/,
      ],
      [
        "a key shorter than 24 bytes",
        `whsec_${randomBytes(16).toString("base64")}`,
        /base64 key of at least 24 bytes/,
      ],
      ["an empty key", "whsec_", /base64 key of at least 24 bytes/],
    ])("refuses %s, never showing it, and sends no lead to the webhook", (_, value, reason) => {
      const { env, lines } = parse({
        LEAD_WEBHOOK_URL: "https://crm.example.in/hooks",
        LEAD_WEBHOOK_SECRET: value,
      });
      expect(env.LEAD_WEBHOOK_SECRET).toBeUndefined();
      expect(env.LEAD_WEBHOOK_URL).toBeUndefined();
      expect(lines).toEqual([expect.stringMatching(/^config: LEAD_WEBHOOK_SECRET is invalid \(/)]);
      expect(lines[0]).toMatch(reason);
      expect(lines[0]).toMatch(/no lead is sent to the webhook until it is fixed$/);
      if (value.length > "whsec_".length) expect(lines[0]).not.toContain(value.slice(6, 20));
    });

    it("turns the lead webhook off when one of its two variables is missing, naming that one", () => {
      const urlOnly = parse({ LEAD_WEBHOOK_URL: "https://crm.example.in/hooks/t0ken" });
      expect(urlOnly.lines).toEqual([
        "config: LEAD_WEBHOOK_URL is set but LEAD_WEBHOOK_SECRET is not; no lead is sent to the webhook until both are set",
      ]);
      expect(urlOnly.env.LEAD_WEBHOOK_URL).toBeUndefined();
      const secretOnly = parse({ LEAD_WEBHOOK_SECRET: secret });
      expect(secretOnly.lines).toEqual([
        "config: LEAD_WEBHOOK_SECRET is set but LEAD_WEBHOOK_URL is not; no lead is sent to the webhook until both are set",
      ]);
      expect(secretOnly.env.LEAD_WEBHOOK_SECRET).toBeUndefined();
      // A bad URL beside a good secret: its own line, and the secret is of no use alone.
      const badUrl = parse({ LEAD_WEBHOOK_URL: "http://crm.example.in/t0ken", LEAD_WEBHOOK_SECRET: secret });
      expect(badUrl.lines).toHaveLength(1);
      expect(badUrl.env.LEAD_WEBHOOK_SECRET).toBeUndefined();
    });

    it("reads ALERT_AFTER_MINUTES as whole minutes, 30 by default", () => {
      expect(parse({}).env.ALERT_AFTER_MINUTES).toBe(30);
      for (const bad of ["0", "-5", "1.5", "soon"]) {
        const { env, lines } = parse({ ALERT_AFTER_MINUTES: bad });
        expect(env.ALERT_AFTER_MINUTES).toBe(30);
        expect(lines).toEqual([
          expect.stringMatching(/^config: ALERT_AFTER_MINUTES=.* is invalid .*using the default instead$/),
        ]);
      }
    });

    it("says once at start that leads travel unencrypted to a plain-http webhook's host", () => {
      const warnings = (url: string) => {
        const lines: string[] = [];
        warnIfLeadWebhookUnencrypted(
          parse({ LEAD_WEBHOOK_URL: url, LEAD_WEBHOOK_SECRET: secret }).env,
          (line) => lines.push(line),
        );
        return lines;
      };
      expect(warnings("http://10.0.0.7:5678/webhook/t0ken")).toEqual([
        "config: LEAD_WEBHOOK_URL is plain http, so leads travel unencrypted to 10.0.0.7:5678; use https unless that host is in your own network",
      ]);
      expect(warnings("https://crm.example.in/webhook/t0ken")).toEqual([]);
    });
  });

  describe("/admin's GitHub sign-in", () => {
    const complete = {
      CMS_GITHUB_REPO: "nirmaan/site",
      CMS_GITHUB_CLIENT_ID: "Iv1.0123456789abcdef",
      CMS_GITHUB_CLIENT_SECRET: "0123456789abcdef0123456789abcdef01234567",
    };

    it("takes the repository and the OAuth app, with main and github.com by default", () => {
      const lines: string[] = [];
      expect(parseEnv(complete, (line) => lines.push(line))).toMatchObject({
        ...complete,
        CMS_GITHUB_BRANCH: "main",
        CMS_GITHUB_OAUTH_URL: "https://github.com",
        CMS_GITHUB_API_ROOT: "https://api.github.com",
      });
      expect(lines).toEqual([]);
    });

    it("takes a GitHub Enterprise server's OAuth URL and API root together", () => {
      const lines: string[] = [];
      const env = parseEnv(
        {
          ...complete,
          CMS_GITHUB_OAUTH_URL: "https://github.example.com/",
          CMS_GITHUB_API_ROOT: "https://github.example.com/api/v3/",
        },
        (line) => lines.push(line),
      );
      expect(lines).toEqual([]);
      expect(env).toMatchObject({
        ...complete,
        CMS_GITHUB_OAUTH_URL: "https://github.example.com",
        CMS_GITHUB_API_ROOT: "https://github.example.com/api/v3",
      });
    });

    it("refuses a GitHub URL that is plain http to another host, or holds credentials: one line, sign-in off", () => {
      for (const [name, value, shown] of [
        ["CMS_GITHUB_OAUTH_URL", "http://github.example.com", true],
        ["CMS_GITHUB_OAUTH_URL", "https://github.com@evil.example", false],
        ["CMS_GITHUB_API_ROOT", "http://10.0.0.7/api/v3", true],
        ["CMS_GITHUB_API_ROOT", "https://api.github.com@evil.example", false],
      ] as const) {
        const lines: string[] = [];
        const env = parseEnv({ ...complete, [name]: value }, (line) => lines.push(line));
        expect(lines, value).toEqual([
          expect.stringMatching(
            new RegExp(
              `^config: ${name}${shown ? "=\\S+" : ""} is invalid \\(.*\\); /admin's GitHub sign-in stays off until it is fixed$`,
            ),
          ),
        ]);
        if (!shown) expect(lines.join("")).not.toContain("evil.example");
        expect(env.CMS_GITHUB_REPO).toBeUndefined();
        expect(env.CMS_GITHUB_CLIENT_SECRET).toBeUndefined();
      }
    });

    it("keeps sign-in off when the OAuth server and the API are not one GitHub's, saying so in one line", () => {
      const lines: string[] = [];
      const env = parseEnv({ ...complete, CMS_GITHUB_OAUTH_URL: "https://github.example.com" }, (line) =>
        lines.push(line),
      );
      expect(lines).toEqual([
        "config: CMS_GITHUB_OAUTH_URL names github.example.com but CMS_GITHUB_API_ROOT is https://api.github.com, so the editor would send that server's token to github.com; set CMS_GITHUB_API_ROOT to its API (https://<host>/api/v3 for GitHub Enterprise Server); /admin's GitHub sign-in stays off until both name one GitHub (docs/configuration.md)",
      ]);
      expect(env.CMS_GITHUB_REPO).toBeUndefined();
      const other: string[] = [];
      parseEnv({ ...complete, CMS_GITHUB_API_ROOT: "https://github.example.com/api/v3" }, (line) =>
        other.push(line),
      );
      expect(other).toEqual([
        expect.stringMatching(/^config: CMS_GITHUB_API_ROOT names github\.example\.com but/),
      ]);
    });

    it("with a setting missing, says in one line which, keeps sign-in off, and never shows the secret", () => {
      const lines: string[] = [];
      const env = parseEnv({ ...complete, CMS_GITHUB_CLIENT_ID: "" }, (line) => lines.push(line));
      expect(lines).toEqual([
        "config: CMS_GITHUB_REPO, CMS_GITHUB_CLIENT_SECRET are set but CMS_GITHUB_CLIENT_ID is not; /admin's GitHub sign-in stays off until all three are set (docs/configuration.md)",
      ]);
      expect(env.CMS_GITHUB_REPO).toBeUndefined();
      expect(env.CMS_GITHUB_CLIENT_SECRET).toBeUndefined();
    });

    it("names a bad secret without its value", () => {
      const lines: string[] = [];
      parseEnv({ ...complete, CMS_GITHUB_CLIENT_SECRET: "short-secret" }, (line) => lines.push(line));
      expect(lines[0]).toMatch(
        /^config: CMS_GITHUB_CLIENT_SECRET is invalid \(must be the OAuth app's client secret\)/,
      );
      expect(lines.join("\n")).not.toContain("short-secret");
    });
  });
});
