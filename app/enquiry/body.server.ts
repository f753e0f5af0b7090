/** Reads an enquiry's form body within its size limit, as the values of each field name. */
import { readLimitedText } from "~/http/limited-body.server";

/** The largest enquiry body we read. A maximal valid enquiry, percent-encoded, stays under it. */
export const MAX_BODY_BYTES = 16 * 1024;

export type FormBody =
  | { ok: true; fields: Map<string, string[]> }
  | { ok: false; status: 400 | 413; reason: string };

/**
 * Reads an `application/x-www-form-urlencoded` body strictly: at most `limit` bytes (the
 * declared length is checked first, then bytes are counted while reading, and reading stops
 * past the limit), valid UTF-8 only, both raw and percent-encoded. Every value keeps all its
 * occurrences so callers can reject repeated fields. Line breaks are normalised to "\n", as
 * the browser counts them for `maxlength`.
 */
export async function readFormBody(request: Request, limit = MAX_BODY_BYTES): Promise<FormBody> {
  const body = await readLimitedText(request, { contentType: "application/x-www-form-urlencoded", limit });
  if (!body.ok) return body;
  const fields = parseUrlEncoded(body.text);
  return fields ? { ok: true, fields } : { ok: false, status: 400, reason: "malformed percent-encoding" };
}

/** A field's value when it was posted exactly once. */
export function singleValue(fields: Map<string, string[]>, name: string): string | undefined {
  const values = fields.get(name);
  return values?.length === 1 ? values[0] : undefined;
}

function parseUrlEncoded(text: string): Map<string, string[]> | null {
  const fields = new Map<string, string[]>();
  for (const pair of text.split("&")) {
    if (pair === "") continue;
    const separator = pair.indexOf("=");
    const name = decode(separator === -1 ? pair : pair.slice(0, separator));
    const value = decode(separator === -1 ? "" : pair.slice(separator + 1));
    if (name === null || value === null) return null;
    const values = fields.get(name);
    if (values) values.push(value);
    else fields.set(name, [value]);
  }
  return fields;
}

/** `decodeURIComponent` throws on percent-encoded bytes that are not UTF-8; URLSearchParams would hide them. */
function decode(part: string): string | null {
  try {
    return decodeURIComponent(part.replace(/\+/g, " ")).replace(/\r\n?/g, "\n");
  } catch {
    return null;
  }
}
