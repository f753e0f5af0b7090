/**
 * The rule for a webhook URL (LEAD_WEBHOOK_URL, ALERT_WEBHOOK_URL), read by the environment's
 * check and by the senders' log lines: plain data and rules that need nothing of the site.
 */
import { BlockList, isIP } from "node:net";

/** The loopback and private ranges plain http may go to: nothing there crosses the internet. */
const PRIVATE_RANGES = new BlockList();
PRIVATE_RANGES.addSubnet("127.0.0.0", 8, "ipv4");
PRIVATE_RANGES.addSubnet("10.0.0.0", 8, "ipv4");
PRIVATE_RANGES.addSubnet("172.16.0.0", 12, "ipv4");
PRIVATE_RANGES.addSubnet("192.168.0.0", 16, "ipv4");
PRIVATE_RANGES.addAddress("::1", "ipv6");
PRIVATE_RANGES.addSubnet("fc00::", 7, "ipv6");

/**
 * Whether a URL's host name (as `new URL` gives it: lower case, an IPv6 address in brackets) is
 * `localhost` or an address in a loopback or private range. A host name other than `localhost`
 * is not: where it points is up to the DNS. `localhost.` (with the final dot of a fully
 * qualified name) is not either: the resolver skips /etc/hosts for it and asks the DNS.
 * (`127.0.0.1.` needs no rule: `new URL` reads an address with a final dot as the address.)
 */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname.replace(/^\[(.*)\]$/, "$1");
  if (host === "localhost") return true;
  const family = isIP(host);
  return family !== 0 && PRIVATE_RANGES.check(host, family === 4 ? "ipv4" : "ipv6");
}

/** The loopback range alone: what plain http may reach when nothing else of the network may (~/url-rules.server). */
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet("127.0.0.0", 8, "ipv4");
LOOPBACK.addAddress("::1", "ipv6");

/** Whether a URL's host name is `localhost` or a loopback address, read as `isPrivateHost` reads it. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[(.*)\]$/, "$1");
  if (host === "localhost") return true;
  const family = isIP(host);
  return family !== 0 && LOOPBACK.check(host, family === 4 ? "ipv4" : "ipv6");
}

/** The host (and port) of a webhook URL: all a log line may name, since the path can hold a token. */
export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "(not a URL)";
  }
}

/**
 * A webhook URL as the site accepts one: https, or plain http to a loopback or private address.
 * The reason names the host at most, never the URL (Slack's carry their token in the path).
 */
export function checkWebhookUrl(value: string): { ok: true; url: string } | { ok: false; reason: string } {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { ok: false, reason: "must be an https URL" };
  }
  if (url.protocol === "https:") return { ok: true, url: url.href };
  if (url.protocol !== "http:") return { ok: false, reason: "must be an https URL" };
  if (isPrivateHost(url.hostname)) return { ok: true, url: url.href };
  if (/^localhost\.+$/.test(url.hostname)) {
    return {
      ok: false,
      reason: `plain http is accepted only to a loopback or private address, and ${url.host} is looked up through the DNS, not /etc/hosts: write localhost without the final dot, or 127.0.0.1`,
    };
  }
  return {
    ok: false,
    reason: `plain http is accepted only to a loopback or private address, and ${url.host} is neither; use https`,
  };
}

/** Whether a (checked) webhook URL is plain http, so what it carries travels unencrypted. */
export function isPlainHttp(url: string): boolean {
  return url.startsWith("http:");
}
