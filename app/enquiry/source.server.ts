/**
 * Reads where an enquiry came from, from the fields the browser added or else the page it was
 * posted from.
 *
 * Why every lead carries its source: docs/decisions/018-lead-sources.md.
 */
import { singleValue } from "~/enquiry/body.server";
import { SOURCE_FIELDS } from "~/enquiry/source-fields";
import { env } from "~/env.server";
import { cleanOrigin, cleanPath, type LeadSource, leadSource, trackingParameters } from "~/lead-parts/source";

/**
 * Where an enquiry came from, read at submit and never refused for: the landing the browser's
 * script kept from the first page of the visit (path, query and another site's origin), or
 * without it the page the form was posted from, by its `Referer`, when that is this site (its
 * `SITE_URL`, or the origin the request was made to). Each value that is too long, holds an
 * invisible character or is not what it claims is dropped alone; unknown parameters are ignored.
 * A forged value labels only the enquiry it came with.
 */
export function captureSource(
  request: Request,
  fields: Map<string, string[]>,
  siteUrl: string = env.SITE_URL,
): LeadSource | undefined {
  const own = new URL(request.url).origin;
  const origins = new Set([own, originOf(siteUrl)]);
  const landing =
    ownPage(singleValue(fields, SOURCE_FIELDS.landing), own, origins) ??
    ownPage(request.headers.get("Referer") ?? undefined, undefined, origins);
  const referrer = singleValue(fields, SOURCE_FIELDS.referrer);
  return leadSource({
    landing: landing && cleanPath(landing.pathname) ? landing.pathname : undefined,
    referrer: cleanOrigin(referrer) && !origins.has(referrer) ? referrer : undefined,
    parameters: landing ? trackingParameters(landing.searchParams) : undefined,
  });
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/**
 * `value` as a URL of this site: a path (`/…`, resolved against `base`) or, with no base, an
 * absolute URL whose origin is one of `origins`.
 */
function ownPage(value: string | undefined, base: string | undefined, origins: Set<string | undefined>) {
  if (!value || value.length > 2048) return undefined;
  if (base !== undefined && !/^\/(?![/\\])/.test(value)) return undefined;
  try {
    const url = new URL(value, base);
    return origins.has(url.origin) ? url : undefined;
  } catch {
    return undefined;
  }
}
