import { describe, expect, it } from "vitest";
import {
  checkGitHubApiRoot,
  checkGitHubOAuthUrl,
  checkSiteOrigin,
  holdsCredentials,
} from "~/url-rules.server";
import { loggedValue } from "../../server/admin/oauth";

const taken = (checked: { ok: true; url: string } | { ok: false; reason: string }) =>
  checked.ok ? checked.url : undefined;
const reason = (checked: { ok: true; url: string } | { ok: false; reason: string }) =>
  checked.ok ? undefined : checked.reason;

describe("SITE_URL: an origin only", () => {
  it("takes scheme, host and port, in one spelling", () => {
    expect(taken(checkSiteOrigin("https://www.example.in"))).toBe("https://www.example.in");
    expect(taken(checkSiteOrigin("https://WWW.Example.in:443/"))).toBe("https://www.example.in");
    expect(taken(checkSiteOrigin("http://127.0.0.1:3170"))).toBe("http://127.0.0.1:3170");
  });

  it("refuses a path, a query, a fragment, credentials or another scheme, saying which", () => {
    expect(reason(checkSiteOrigin("https://www.example.in/site"))).toMatch(/without a path/);
    expect(reason(checkSiteOrigin("https://www.example.in/?ref=1"))).toMatch(/query or a fragment/);
    expect(reason(checkSiteOrigin("https://www.example.in#top"))).toMatch(/query or a fragment/);
    expect(reason(checkSiteOrigin("https://www.example.in?"))).toMatch(/query or a fragment/);
    expect(reason(checkSiteOrigin("https://admin:pw@www.example.in"))).toMatch(/user name or password/);
    expect(reason(checkSiteOrigin("ftp://www.example.in"))).toMatch(/https URL/);
    expect(reason(checkSiteOrigin("www.example.in"))).toMatch(/must be a URL/);
  });
});

describe("the GitHub URLs of /admin's sign-in", () => {
  it("take https, or plain http to a loopback address only", () => {
    expect(taken(checkGitHubOAuthUrl("https://github.com/"))).toBe("https://github.com");
    expect(taken(checkGitHubOAuthUrl("http://127.0.0.1:9000"))).toBe("http://127.0.0.1:9000");
    expect(taken(checkGitHubOAuthUrl("http://[::1]:9000"))).toBe("http://[::1]:9000");
    expect(taken(checkGitHubOAuthUrl("http://localhost:9000"))).toBe("http://localhost:9000");
    expect(reason(checkGitHubOAuthUrl("http://github.example.com"))).toMatch(
      /plain http is accepted only to a loopback address, and github\.example\.com is not one/,
    );
    // A private address is not a loopback one: the secret would cross the network in clear.
    expect(reason(checkGitHubOAuthUrl("http://10.0.0.7"))).toMatch(/only to a loopback address/);
    expect(reason(checkGitHubApiRoot("http://192.168.1.2/api/v3"))).toMatch(/only to a loopback address/);
  });

  it("refuse a URL with credentials, which names another host than it seems to", () => {
    expect(reason(checkGitHubOAuthUrl("https://github.com@evil.example"))).toMatch(/user name or password/);
    expect(reason(checkGitHubApiRoot("https://api.github.com:x@evil.example"))).toMatch(
      /user name or password/,
    );
    expect(holdsCredentials("https://github.com@evil.example")).toBe(true);
    expect(holdsCredentials("https://github.com/login@x")).toBe(false);
  });

  it("the OAuth URL is an origin; the API root may have a path, kept without its final slash", () => {
    expect(reason(checkGitHubOAuthUrl("https://github.example.com/login"))).toMatch(/without a path/);
    expect(reason(checkGitHubOAuthUrl("https://github.com?x=1"))).toMatch(/query or a fragment/);
    expect(taken(checkGitHubApiRoot("https://api.github.com"))).toBe("https://api.github.com");
    expect(taken(checkGitHubApiRoot("https://github.example.com/api/v3/"))).toBe(
      "https://github.example.com/api/v3",
    );
    expect(reason(checkGitHubApiRoot("https://github.example.com/api/v3#x"))).toMatch(/query or a fragment/);
  });
});

describe("a value from outside in a log line", () => {
  it("is quoted printable ASCII on one line, 60 characters at most", () => {
    expect(loggedValue("access_denied")).toBe('"access_denied"');
    const forged = loggedValue("x\nserver: listening on http://evil\r\n\u2028admin: ok");
    expect(forged).toBe('"x\\nserver: listening on http://evil\\r\\n\\u2028admin: ok"');
    expect(forged).toMatch(/^[\x20-\x7e]+$/);
    expect(loggedValue("a".repeat(200))).toBe(`"${"a".repeat(60)}"`);
  });
});
