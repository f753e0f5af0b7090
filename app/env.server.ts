/** The server's environment, read and validated once at start, with one line naming each misconfiguration. */
import { isIP } from "node:net";
import { isAbsolute } from "node:path";
import { Webhook } from "standardwebhooks";
import * as z from "zod";
import { type BlockList, EMPTY_BLOCK_LIST, parseBlockList } from "~/lead-parts/block-list.server";
import {
  checkGitHubApiRoot,
  checkGitHubOAuthUrl,
  checkSiteOrigin,
  holdsCredentials,
  type UrlCheck,
} from "~/url-rules.server";
import { checkWebhookUrl, hostOf, isPlainHttp } from "~/webhook-url.server";

/**
 * Every environment variable the server reads, validated once at start-up. A bad value
 * logs one line naming the variable and falls back to its default, so the site still serves.
 */
const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === "" ? undefined : value))
  .optional();

/** A file's absolute path on this machine. */
const absolutePath = z
  .string()
  .trim()
  .refine((value) => isAbsolute(value), "must be an absolute path");

/** An IPv4 or IPv6 address, or a subnet of either in CIDR notation (`10.0.0.0/8`, `fd00::/8`). */
function isAddressOrSubnet(entry: string): boolean {
  const [address = "", prefix, ...rest] = entry.split("/");
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
}

/**
 * Who may say who the client is: the number of the operator's proxies in front (the pre-2026
 * `true`/`false` still read as 1/0), or the list of the proxies' addresses and subnets.
 */
const trustProxy = z
  .string()
  .trim()
  .refine(
    (value) =>
      /^(?:[0-9]|true|false)$/.test(value) ||
      value.split(",").every((entry) => isAddressOrSubnet(entry.trim())),
    "must be the number of proxies in front (0 to 9) or a comma-separated list of their addresses or subnets",
  )
  .transform((value): number | readonly string[] => {
    if (value === "true" || value === "false") return value === "true" ? 1 : 0;
    if (/^[0-9]$/.test(value)) return Number(value);
    return value.split(",").map((entry) => entry.trim().toLowerCase());
  });

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];

/** `monday 09:00` (a weekday and a 24-hour time), or `off`: null. */
const weeklyTime = z
  .string()
  .trim()
  .toLowerCase()
  .refine(
    (value) =>
      value === "off" ||
      (/^[a-z]+ ([01]\d|2[0-3]):[0-5]\d$/.test(value) && WEEKDAYS.includes(value.split(" ")[0] ?? "")),
    "must be a weekday and a 24-hour time, such as `monday 09:00`, or `off`",
  )
  .transform((value): { day: number; hour: number; minute: number } | null => {
    if (value === "off") return null;
    const [day = "", time = ""] = value.split(" ");
    const [hour = 0, minute = 0] = time.split(":").map(Number);
    return { day: WEEKDAYS.indexOf(day), hour, minute };
  });

const blockList = z.string().transform((text, context): BlockList => {
  const parsed = parseBlockList(text);
  if (parsed.ok) return parsed.list;
  context.addIssue({ code: "custom", message: parsed.error });
  return z.NEVER;
});

/** https, or plain http to a loopback or private address (~/webhook-url.server). */
const webhookUrl = z
  .string()
  .trim()
  .transform((value, context) => {
    const checked = checkWebhookUrl(value);
    if (checked.ok) return checked.url;
    context.addIssue({ code: "custom", message: checked.reason });
    return z.NEVER;
  });

/** A URL that one of ~/url-rules.server's rules takes, in the spelling it gives. */
const checkedUrl = (check: (value: string) => UrlCheck) =>
  z
    .string()
    .trim()
    .transform((value, context) => {
      const checked = check(value);
      if (checked.ok) return checked.url;
      context.addIssue({ code: "custom", message: checked.reason });
      return z.NEVER;
    });

/** The Standard Webhooks spec asks for a key of 24 to 64 bytes; a shorter one can be guessed. */
const MIN_WEBHOOK_KEY_BYTES = 24;

/** The key's length in bytes; 0 when the package that signs cannot read the secret. */
function webhookKeyBytes(secret: string): number {
  try {
    new Webhook(secret);
  } catch {
    return 0;
  }
  return Buffer.from(secret.slice("whsec_".length), "base64").length;
}

/** A Standard Webhooks secret: `whsec_` and a base64 key, as the receiver is given it too. */
const webhookSecret = z
  .string()
  .trim()
  .refine((value) => value.startsWith("whsec_"), "must start with whsec_ (a Standard Webhooks secret)")
  .refine(
    (value) => webhookKeyBytes(value) >= MIN_WEBHOOK_KEY_BYTES,
    `must be whsec_ and a base64 key of at least ${MIN_WEBHOOK_KEY_BYTES} bytes: whsec_ and the output of \`openssl rand -base64 32\``,
  );

/** An address a `mailto:` link carries as it is: ASCII, nothing a URL or a mail header must escape. */
const PLAIN_ADDRESS = /^[A-Za-z0-9._+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$/;
const CONTACT_NAME = /^[^\p{Cc}<>"]{1,80}$/u;

/** Who answers questions about personal data (DPDP Rules, rule 9): `Name <address>` or an address. */
const privacyContact = z.string().transform((value, context): { name?: string; email: string } => {
  const named = /^(.*?)\s*<([^<>]*)>$/.exec(value.trim());
  const name = named?.[1]?.trim();
  const email = (named ? (named[2] ?? "") : value).trim();
  if (PLAIN_ADDRESS.test(email) && (!name || CONTACT_NAME.test(name))) {
    return name ? { name, email } : { email };
  }
  context.addIssue({
    code: "custom",
    message: "must be an e-mail address, or a name and an address, such as Asha Rao <privacy@example.in>",
  });
  return z.NEVER;
});

/** SITE_URL's default: where `npm start` serves. */
const LOCAL_ORIGIN = "http://localhost:3000";
const GITHUB_OAUTH_URL = "https://github.com";
const GITHUB_API_ROOT = "https://api.github.com";

const schema = {
  PORT: z.coerce.number().int().min(1).max(65_535).default(3000),
  /** Listen address; unset: every interface (the image needs that). */
  HOST: optionalText,
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  EMAILJS_SERVICE_ID: optionalText,
  EMAILJS_TEMPLATE_ID: optionalText,
  EMAILJS_PUBLIC_KEY: optionalText,
  EMAILJS_PRIVATE_KEY: optionalText,
  EMAILJS_ORIGIN: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9.-]+$/, "must be a host name, without scheme, port or path")
    .default("api.emailjs.com"),
  ENQUIRY_STORE_DIR: z.string().trim().min(1).default("./data"),
  ENQUIRY_RETENTION_DAYS: z.coerce.number().int().min(1).default(90),
  ENQUIRY_SEND_INTERVAL_MS: z.coerce.number().int().min(0).default(1000),
  ENQUIRY_RATE_LIMIT: z.coerce.number().int().min(0).default(5),
  ENQUIRY_RATE_WINDOW: z.coerce.number().int().min(1).default(600),
  VITALS_RATE_LIMIT: z.coerce.number().int().min(0).default(60),
  VITALS_RATE_WINDOW: z.coerce.number().int().min(1).default(600),
  VITALS_MAX_MB: z.coerce.number().min(0.01).max(1024).default(10),
  /** Landing reports one client may send per VITALS_RATE_WINDOW (the campaign counts' own limit); 0 turns counting visits off. */
  LANDING_RATE_LIMIT: z.coerce.number().int().min(0).default(20),
  /** The day boundary of the campaign counts and their weekly summary (an IANA time zone). */
  REPORT_TIME_ZONE: z
    .string()
    .trim()
    .refine(isTimeZone, "must be an IANA time zone such as Asia/Kolkata or Europe/London")
    .default("Asia/Kolkata"),
  /** When the week's campaign summary is posted to the team chat (ALERT_WEBHOOK_URL): `monday 09:00`, or `off`. */
  REPORT_WEEKLY: weeklyTime.default({ day: 1, hour: 9, minute: 0 }),
  ENQUIRY_FLOOD_LIMIT: z.coerce.number().int().min(0).default(300),
  WITHDRAWAL_REFERENCE_LIMIT: z.coerce.number().int().min(0).default(5),
  WITHDRAWAL_RATE_LIMIT: z.coerce.number().int().min(0).default(10),
  WITHDRAWAL_SITE_LIMIT: z.coerce.number().int().min(0).default(100),
  WITHDRAWAL_RATE_WINDOW: z.coerce.number().int().min(1).default(3600),
  TRUST_PROXY: trustProxy.default(0),
  ENQUIRY_BLOCK_LIST: blockList.default(EMPTY_BLOCK_LIST),
  ENQUIRY_BLOCK_HEADLESS: z
    .enum(["0", "1"], { error: "must be 1 (on) or 0 (off)" })
    .transform((value) => value === "1")
    .default(false),
  ENQUIRY_THROTTLE: z.coerce
    .number({ error: "must be a number of seconds" })
    .int("must be a whole number of seconds")
    .min(0, "must be a number of seconds, 0 or more")
    .max(86_400, "must be at most 86400 (a day)")
    .default(0),
  ENQUIRY_SPAM_RETENTION_DAYS: z.coerce.number().int().min(1).default(30),
  /** Unset: the footer's e-mail address (~/content/site). */
  PRIVACY_CONTACT: privacyContact.optional(),
  HEALTH_TOKEN: z
    .string()
    .trim()
    .min(16, "must be at least 16 characters")
    // What an `Authorization: Bearer` header can carry (RFC 6750): a space would never match.
    .regex(/^[\x21-\x7e]+$/, "must be printable ASCII without spaces")
    .optional(),
  SHUTDOWN_DEADLINE: z.coerce.number().int().min(1).max(3600).default(10),
  NOTICE_SECRET: z
    .string()
    .trim()
    .min(32, "must be at least 32 characters, e.g. the output of `openssl rand -base64 32`")
    .optional(),
  /**
   * PostgreSQL (`postgres://user:password@host:5432/db?sslmode=require`): where replicas keep the
   * state they share. Unset: the data folder. Checked by ~/db/connection-string.server, which
   * can name what is wrong without showing the password.
   */
  DATABASE_URL: optionalText,
  /** Connections each replica opens at most; all replicas together stay under `max_connections`. */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(5),
  /** The public origin: scheme, host and port only (~/url-rules.server). */
  SITE_URL: checkedUrl(checkSiteOrigin).default(LOCAL_ORIGIN),
  /** Where every lead is also POSTed as a signed Standard Webhooks event (a CRM, n8n, Zapier). */
  LEAD_WEBHOOK_URL: webhookUrl.optional(),
  LEAD_WEBHOOK_SECRET: webhookSecret.optional(),
  /** A team chat's incoming webhook (Slack, Google Chat…): told when a lead cannot be delivered. */
  ALERT_WEBHOOK_URL: webhookUrl.optional(),
  /** Minutes a `pending` lead may wait before the team chat is told. */
  ALERT_AFTER_MINUTES: z.coerce.number().int().min(1).max(10_080).default(30),
  /** The repository /admin's editor commits to, `owner/name` on GitHub. */
  CMS_GITHUB_REPO: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9-]+\/[A-Za-z0-9_.-]+$/, "must be owner/name, as in github.com/owner/name")
    .optional(),
  /** The branch an edit's pull request goes to once published. */
  CMS_GITHUB_BRANCH: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9._/-]+$/, "must be a branch name")
    .default("main"),
  /** The GitHub OAuth app staff sign in through (github.com/settings/developers). */
  CMS_GITHUB_CLIENT_ID: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9._-]+$/, "must be the OAuth app's client ID")
    .optional(),
  CMS_GITHUB_CLIENT_SECRET: z.string().trim().min(20, "must be the OAuth app's client secret").optional(),
  /** Where GitHub's OAuth endpoints are: github.com, or a GitHub Enterprise server (an origin). */
  CMS_GITHUB_OAUTH_URL: checkedUrl(checkGitHubOAuthUrl).default(GITHUB_OAUTH_URL),
  /** GitHub's REST API, which the editor sends its token to: api.github.com, or the Enterprise server's. */
  CMS_GITHUB_API_ROOT: checkedUrl(checkGitHubApiRoot).default(GITHUB_API_ROOT),
  /**
   * The local editor, all three set by `npm run content` (docs/content-editing.md): decap-server's
   * unix socket, which /admin/api/v1 forwards to; the run's token the editor's page must send; the
   * git checkout decap-server edits, whose `content/` is the only folder a request may name.
   */
  CMS_LOCAL_SOCKET: absolutePath.optional(),
  CMS_LOCAL_TOKEN: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{32,}$/, "must be at least 32 letters, digits, _ or -")
    .optional(),
  CMS_LOCAL_REPOSITORY: absolutePath.optional(),
} satisfies Record<string, z.ZodType>;

/**
 * Variables whose value never goes into a log line, not even a wrong one: secrets, the block
 * list (people's addresses and numbers), the privacy contact (a person's name and address), and
 * webhook URLs (Slack's carry a token in the path; their lines name the host at most).
 */
const SECRETS = new Set<string>([
  "DATABASE_URL",
  "EMAILJS_PRIVATE_KEY",
  "HEALTH_TOKEN",
  "ENQUIRY_BLOCK_LIST",
  "NOTICE_SECRET",
  "LEAD_WEBHOOK_URL",
  "LEAD_WEBHOOK_SECRET",
  "ALERT_WEBHOOK_URL",
  "PRIVACY_CONTACT",
  "CMS_GITHUB_CLIENT_SECRET",
  "CMS_LOCAL_TOKEN",
]);

type Schema = typeof schema;

/** Protections that are off by default: a bad value leaves them off, rather than half on. */
const PROTECTIONS = new Set<string>(["ENQUIRY_BLOCK_LIST", "ENQUIRY_BLOCK_HEADLESS", "ENQUIRY_THROTTLE"]);

/** What a bad value turns off, for the variables whose default is "off" and not a value. */
const SIGN_IN_OFF = "/admin's GitHub sign-in stays off until it is fixed";
const TURNED_OFF: Record<string, string> = {
  LEAD_WEBHOOK_URL: "no lead is sent to the webhook until it is fixed",
  LEAD_WEBHOOK_SECRET: "no lead is sent to the webhook until it is fixed",
  ALERT_WEBHOOK_URL: "no alert is sent until it is fixed",
  SITE_URL: `canonical links, the sitemap and Open Graph name ${LOCAL_ORIGIN}, and in production /admin's GitHub sign-in stays off, until it is fixed`,
  CMS_GITHUB_REPO: SIGN_IN_OFF,
  CMS_GITHUB_CLIENT_ID: SIGN_IN_OFF,
  CMS_GITHUB_CLIENT_SECRET: SIGN_IN_OFF,
  CMS_GITHUB_OAUTH_URL: SIGN_IN_OFF,
  CMS_GITHUB_API_ROOT: SIGN_IN_OFF,
};
export type Env = { [K in keyof Schema]: z.output<Schema[K]> };

export function parseEnv(
  source: Record<string, string | undefined>,
  log: (line: string) => void = console.error,
): Env {
  const env: Record<string, unknown> = {};
  const refused = new Set<string>();
  for (const [name, field] of Object.entries(schema) as [keyof Schema, z.ZodType][]) {
    const raw = source[name];
    const result = field.safeParse(raw === undefined || raw.trim() === "" ? undefined : raw);
    if (result.success) {
      env[name] = result.data;
    } else {
      const reason = result.error.issues[0]?.message ?? "invalid value";
      // A URL's credentials are a secret whichever variable holds it.
      const shown =
        SECRETS.has(name) || holdsCredentials(raw ?? "") ? name : `${name}=${JSON.stringify(raw)}`;
      const fallback =
        TURNED_OFF[name] ??
        (PROTECTIONS.has(name) ? "this protection stays off until it is fixed" : "using the default instead");
      log(`config: ${shown} is invalid (${reason}); ${fallback}`);
      env[name] = field.parse(undefined);
      refused.add(name);
    }
  }
  const parsed = env as Env;
  const trustProxy = source.TRUST_PROXY?.trim();
  if (trustProxy === "true" || trustProxy === "false") {
    log(
      `config: TRUST_PROXY=${trustProxy} is deprecated; it now takes the number of proxies in front: use TRUST_PROXY=${parsed.TRUST_PROXY}`,
    );
  }
  checkLeadWebhookPair(source, parsed, log);
  checkCmsGithub(source, parsed, refused, log);
  checkCmsLocal(source, parsed, log);
  return parsed;
}

/**
 * The lead webhook needs its URL and its secret: with one only, one line names the other, and
 * both read as unset (no lead goes to the webhook). A bad value has had its own line already.
 */
function checkLeadWebhookPair(
  source: Record<string, string | undefined>,
  env: Env,
  log: (line: string) => void,
) {
  const given = (name: string) => (source[name]?.trim() ?? "") !== "";
  const url = given("LEAD_WEBHOOK_URL");
  const secret = given("LEAD_WEBHOOK_SECRET");
  if (url !== secret) {
    const [set, missing] = url
      ? ["LEAD_WEBHOOK_URL", "LEAD_WEBHOOK_SECRET"]
      : ["LEAD_WEBHOOK_SECRET", "LEAD_WEBHOOK_URL"];
    log(`config: ${set} is set but ${missing} is not; no lead is sent to the webhook until both are set`);
  }
  if (env.LEAD_WEBHOOK_URL === undefined || env.LEAD_WEBHOOK_SECRET === undefined) {
    env.LEAD_WEBHOOK_URL = undefined;
    env.LEAD_WEBHOOK_SECRET = undefined;
  }
}

/** What /admin's GitHub sign-in needs; the branch and the OAuth URL have defaults. */
const CMS_GITHUB = ["CMS_GITHUB_REPO", "CMS_GITHUB_CLIENT_ID", "CMS_GITHUB_CLIENT_SECRET"] as const;

/**
 * /admin's GitHub sign-in needs the repository and the OAuth app's ID and secret: with some but
 * not all, one line names the missing ones, and all read as unset (sign-in stays off). A bad
 * value, the three's or a GitHub URL's, has had its own line already and keeps it off too. The
 * OAuth server and the API must be one GitHub's: a token from an Enterprise server is not sent
 * to api.github.com, nor github.com's to another API.
 */
function checkCmsGithub(
  source: Record<string, string | undefined>,
  env: Env,
  refused: ReadonlySet<string>,
  log: (line: string) => void,
) {
  const given = CMS_GITHUB.filter((name) => (source[name]?.trim() ?? "") !== "");
  const missing = CMS_GITHUB.filter((name) => !given.includes(name));
  if (given.length > 0 && missing.length > 0) {
    log(
      `config: ${given.join(", ")} ${given.length === 1 ? "is" : "are"} set but ${missing.join(" and ")} ${missing.length === 1 ? "is" : "are"} not; /admin's GitHub sign-in stays off until all three are set (docs/configuration.md)`,
    );
  }
  let off = refused.has("CMS_GITHUB_OAUTH_URL") || refused.has("CMS_GITHUB_API_ROOT");
  const enterprise = env.CMS_GITHUB_OAUTH_URL !== GITHUB_OAUTH_URL;
  if (!off && enterprise !== (env.CMS_GITHUB_API_ROOT !== GITHUB_API_ROOT)) {
    off = true;
    log(
      enterprise
        ? `config: CMS_GITHUB_OAUTH_URL names ${new URL(env.CMS_GITHUB_OAUTH_URL).host} but CMS_GITHUB_API_ROOT is ${GITHUB_API_ROOT}, so the editor would send that server's token to github.com; set CMS_GITHUB_API_ROOT to its API (https://<host>/api/v3 for GitHub Enterprise Server); /admin's GitHub sign-in stays off until both name one GitHub (docs/configuration.md)`
        : `config: CMS_GITHUB_API_ROOT names ${new URL(env.CMS_GITHUB_API_ROOT).host} but CMS_GITHUB_OAUTH_URL is ${GITHUB_OAUTH_URL}, so the editor would send github.com's token to another server; set CMS_GITHUB_OAUTH_URL to that GitHub's server too; /admin's GitHub sign-in stays off until both name one GitHub (docs/configuration.md)`,
    );
  }
  if (off || CMS_GITHUB.some((name) => env[name] === undefined)) {
    for (const name of CMS_GITHUB) env[name] = undefined;
  }
}

/** Whether SITE_URL is set to a valid origin: /admin's sign-in returns there (server/admin). */
export function siteUrlGiven(source: Record<string, string | undefined> = process.env): boolean {
  const raw = source.SITE_URL?.trim() ?? "";
  return raw !== "" && schema.SITE_URL.safeParse(raw).success;
}

/** The local editor's three variables, which `npm run content` sets together. */
const CMS_LOCAL = ["CMS_LOCAL_SOCKET", "CMS_LOCAL_TOKEN", "CMS_LOCAL_REPOSITORY"] as const;

/** The local editor needs all three: with some only, one line names the others, and all read as unset (it stays off). */
function checkCmsLocal(source: Record<string, string | undefined>, env: Env, log: (line: string) => void) {
  const given = CMS_LOCAL.filter((name) => (source[name]?.trim() ?? "") !== "");
  const missing = CMS_LOCAL.filter((name) => !given.includes(name));
  if (given.length > 0 && missing.length > 0) {
    log(
      `config: ${given.join(", ")} ${given.length === 1 ? "is" : "are"} set but ${missing.join(" and ")} ${missing.length === 1 ? "is" : "are"} not; the local editor stays off: start it with \`npm run content\``,
    );
  }
  if (CMS_LOCAL.some((name) => env[name] === undefined)) {
    for (const name of CMS_LOCAL) env[name] = undefined;
  }
}

/**
 * Said once when the server starts (not by the command-line tools that read the same
 * environment): in production without SITE_URL the site still serves, so `npm start` works
 * with no configuration, but it would tell search engines and social cards it lives on localhost.
 */
export function warnIfSiteUrlMissing(
  source: Record<string, string | undefined> = process.env,
  config: Env = env,
  log: (line: string) => void = console.error,
): void {
  if (config.NODE_ENV !== "production" || source.SITE_URL?.trim()) return;
  log(
    `config: SITE_URL is not set, so canonical links, the sitemap and Open Graph tags point at ${config.SITE_URL}; set SITE_URL to the site's public origin, e.g. https://www.example.com`,
  );
}

/**
 * Said once when the server starts: a lead webhook over plain http (accepted only to a loopback
 * or private address) carries every lead unencrypted to that host.
 */
export function warnIfLeadWebhookUnencrypted(
  config: Env = env,
  log: (line: string) => void = console.error,
): void {
  if (config.LEAD_WEBHOOK_URL === undefined || !isPlainHttp(config.LEAD_WEBHOOK_URL)) return;
  log(
    `config: LEAD_WEBHOOK_URL is plain http, so leads travel unencrypted to ${hostOf(config.LEAD_WEBHOOK_URL)}; use https unless that host is in your own network`,
  );
}

// One parse per process: the server bundle and the app bundle both import this module, and a
// bad value is said once.
const ENV = Symbol.for("agency-site.env");
const globals = globalThis as typeof globalThis & { [ENV]?: Env };
globals[ENV] ??= parseEnv(process.env);
export const env: Env = globals[ENV];
