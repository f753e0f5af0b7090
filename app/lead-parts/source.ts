/**
 * Where a lead came from (landing page, tracking parameters, referring site): cleaned, parsed and
 * described.
 */
import { CLICK_IDS } from "~/lead-parts/click-ids";
import { showInvisible } from "~/text/invisible-characters";
import { isTrackingParameter } from "~/tracking-parameters.server";

/**
 * Where a lead came from, as captured when the enquiry was submitted: the path of the page the
 * visitor landed on, the tracking parameters of that landing (`utm_source`, `gclid`…), and the
 * origin of the other site that sent them (`https://www.linkedin.com`, never its path). Plain JSON,
 * one level deep, so a database keeps it as one column. Old leads have none.
 */
export interface LeadSource {
  landing?: string;
  referrer?: string;
  parameters?: Record<string, string>;
}

/** A value longer than this is dropped (a click id is under 120 characters). */
const MAX_SOURCE_VALUE = 200;
/** At most this many tracking parameters are kept (`utm_*` is an open family). */
export const MAX_SOURCE_PARAMETERS = 16;
const MAX_PARAMETER_NAME = 40;

/** Paid clicks whose platform tags no `utm_source` of its own: auto-tagged Google and Microsoft ads. */
const PAID_CLICKS: Record<string, string> = {
  gclid: "google",
  gbraid: "google",
  wbraid: "google",
  msclkid: "bing",
};

/** A value kept as it is: short, and every character visible (no control, invisible or bidi character). */
function cleanValue(value: unknown): value is string {
  return (
    typeof value === "string" &&
    value !== "" &&
    value.length <= MAX_SOURCE_VALUE &&
    showInvisible(value) === value
  );
}

/** A site's origin as a referrer: `http(s)://host[:port]`, nothing after it. */
export function cleanOrigin(value: unknown): value is string {
  if (!cleanValue(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === "https:" || url.protocol === "http:") && url.origin === value;
  } catch {
    return false;
  }
}

/** A landing path: one of the site's own (`/…`, never `//host`), without query or fragment. */
export function cleanPath(value: unknown): value is string {
  return cleanValue(value) && /^\/(?![/\\])[^?#]*$/.test(value);
}

function cleanParameterName(name: string): boolean {
  return name.length <= MAX_PARAMETER_NAME && /^[a-z0-9_]+$/.test(name) && isTrackingParameter(name);
}

/**
 * The tracking parameters of a query, each once (the first), clean values only; other
 * parameters are ignored. Undefined when none is left.
 */
export function trackingParameters(search: URLSearchParams): Record<string, string> | undefined {
  const kept: Record<string, string> = {};
  let count = 0;
  for (const [name, value] of search) {
    if (count === MAX_SOURCE_PARAMETERS) break;
    if (Object.hasOwn(kept, name) || !cleanParameterName(name) || !cleanValue(value)) continue;
    kept[name] = value;
    count += 1;
  }
  return count === 0 ? undefined : kept;
}

/** The source made of what was captured, or undefined when nothing was. */
export function leadSource(parts: LeadSource): LeadSource | undefined {
  const source: LeadSource = {
    ...(parts.landing ? { landing: parts.landing } : {}),
    ...(parts.referrer ? { referrer: parts.referrer } : {}),
    ...(parts.parameters ? { parameters: parts.parameters } : {}),
  };
  return Object.keys(source).length === 0 ? undefined : source;
}

/**
 * The source a stored lead holds, checked as strictly as at capture: null when anything in it
 * is not what the site would have written (the lead itself is kept, without it).
 */
export function parseLeadSource(value: unknown): LeadSource | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const { landing, referrer, parameters, ...rest } = value as Record<string, unknown>;
  if (Object.keys(rest).length > 0) return null;
  if (landing !== undefined && !cleanPath(landing)) return null;
  if (referrer !== undefined && !cleanOrigin(referrer)) return null;
  if (parameters !== undefined) {
    if (typeof parameters !== "object" || parameters === null || Array.isArray(parameters)) return null;
    const entries = Object.entries(parameters);
    if (entries.length === 0 || entries.length > MAX_SOURCE_PARAMETERS) return null;
    if (!entries.every(([name, text]) => cleanParameterName(name) && cleanValue(text))) return null;
  }
  return leadSource(value as LeadSource) ?? null;
}

/** The campaign a lead belongs to, as the agency counts them: a source, a medium and a campaign. */
export interface Channel {
  source: string;
  medium: string;
  campaign: string;
}

/**
 * Campaign tags first (`utm_source`, `utm_medium`, `utm_campaign`); else an auto-tagged ad click
 * (`gclid`: google / cpc); else the referring site (linkedin.com / referral); else direct. A lead
 * stored before sources were kept is `unknown`.
 */
export function channelOf(source: LeadSource | undefined): Channel {
  if (!source) return { source: "unknown", medium: "", campaign: "" };
  const parameters = source.parameters ?? {};
  const campaign = parameters.utm_campaign ?? "";
  if (parameters.utm_source || parameters.utm_medium || parameters.utm_campaign) {
    return {
      source: parameters.utm_source ?? "(not set)",
      medium: parameters.utm_medium ?? "(not set)",
      campaign,
    };
  }
  const paid = Object.keys(PAID_CLICKS).find((name) => parameters[name] !== undefined);
  if (paid) return { source: PAID_CLICKS[paid] ?? paid, medium: "cpc", campaign };
  if (source.referrer) {
    return { source: new URL(source.referrer).hostname.replace(/^www\./, ""), medium: "referral", campaign };
  }
  return { source: "direct", medium: "", campaign };
}

/** One line for the mail and the operator: `google / cpc / spring-launch`, `linkedin.com (referral)`, `direct`. */
export function describeSource(source: LeadSource | undefined): string {
  const channel = channelOf(source);
  if (channel.medium === "") return channel.source;
  if (channel.medium === "referral" && channel.campaign === "") return `${channel.source} (referral)`;
  return [channel.source, channel.medium, channel.campaign].filter(Boolean).join(" / ");
}

/** The first ad-click id, as `gclid=…`, or empty. */
export function clickIdOf(source: LeadSource | undefined): string {
  const parameters = source?.parameters ?? {};
  const name = CLICK_IDS.find((id) => parameters[id] !== undefined);
  return name ? `${name}=${parameters[name]}` : "";
}
