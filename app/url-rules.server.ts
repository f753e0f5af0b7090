/**
 * The rules for the URLs the environment names besides webhooks: the site's own origin
 * (SITE_URL) and the GitHub servers /admin's sign-in talks to (CMS_GITHUB_OAUTH_URL,
 * CMS_GITHUB_API_ROOT). Each names one server and nothing else (docs/configuration.md).
 */
import { isLoopbackHost } from "~/webhook-url.server";

export type UrlCheck = { ok: true; url: string } | { ok: false; reason: string };
type ParsedUrl = { ok: true; url: URL } | { ok: false; reason: string };

/** What every rule refuses: not a URL, another scheme, credentials, a query or a fragment. */
function parsed(value: string, example: string): ParsedUrl {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { ok: false, reason: `must be a URL, such as ${example}` };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return { ok: false, reason: `must be an https URL, such as ${example}` };
  }
  if (url.username !== "" || url.password !== "") {
    return {
      ok: false,
      reason: `must not hold a user name or password (what stands before @ is one, and the host is what follows it): write the server's address alone, such as ${example}`,
    };
  }
  if (url.search !== "" || url.hash !== "" || /[?#]/.test(value)) {
    return { ok: false, reason: `must not hold a query or a fragment (? or #), such as ${example}` };
  }
  return { ok: true, url };
}

/** SITE_URL: scheme, host and port only (`https://www.example.com`), as canonical links and `redirect_uri` join paths to it. */
export function checkSiteOrigin(value: string): UrlCheck {
  const example = "https://www.example.com";
  return originAlone(parsed(value, example), "the site's", example);
}

/** The origin of a URL that must have no path beyond `/`. */
function originAlone(checked: ParsedUrl, whose: string, example: string): UrlCheck {
  if (!checked.ok) return checked;
  if (checked.url.pathname !== "/") {
    return { ok: false, reason: `must be ${whose} origin alone, without a path, such as ${example}` };
  }
  return { ok: true, url: checked.url.origin };
}

/** https, or plain http to a loopback address (a test's fake GitHub): the OAuth secret and tokens travel there. */
function checkGitHubServer(value: string, example: string): ParsedUrl {
  const checked = parsed(value, example);
  if (!checked.ok || checked.url.protocol === "https:") return checked;
  if (isLoopbackHost(checked.url.hostname)) return checked;
  return {
    ok: false,
    reason: `plain http is accepted only to a loopback address, and ${checked.url.host} is not one; use https, such as ${example}`,
  };
}

/** CMS_GITHUB_OAUTH_URL: the server of GitHub's OAuth pages, an origin (`https://github.com`, `https://github.example.com`). */
export function checkGitHubOAuthUrl(value: string): UrlCheck {
  const example = "https://github.example.com";
  return originAlone(checkGitHubServer(value, example), "the server's", example);
}

/** CMS_GITHUB_API_ROOT: GitHub's REST API, an origin and a path (`https://api.github.com`, `https://github.example.com/api/v3`). */
export function checkGitHubApiRoot(value: string): UrlCheck {
  const checked = checkGitHubServer(value, "https://github.example.com/api/v3");
  if (!checked.ok) return checked;
  return { ok: true, url: `${checked.url.origin}${checked.url.pathname.replace(/\/+$/, "")}` };
}

/** Whether a URL holds credentials (`user@host`): its value never goes into a log line. */
export function holdsCredentials(value: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/*[^/?#]*@/i.test(value.trim());
}
