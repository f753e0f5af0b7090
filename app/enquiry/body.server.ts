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
  const declared = request.headers.get("Content-Length");
  if (declared !== null && Number(declared) > limit) {
    return { ok: false, status: 413, reason: "declared length over the limit" };
  }
  const type = request.headers.get("Content-Type")?.split(";")[0]?.trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") {
    return { ok: false, status: 400, reason: `unsupported content type ${JSON.stringify(type ?? null)}` };
  }
  if (!request.body) return { ok: false, status: 400, reason: "empty body" };

  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      // Stop reading, but do not cancel: cancelling destroys the socket before we can answer.
      reader.releaseLock();
      return { ok: false, status: 413, reason: "body over the limit" };
    }
    chunks.push(value);
  }

  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    return { ok: false, status: 400, reason: "body is not valid UTF-8" };
  }
  const fields = parseUrlEncoded(text);
  return fields ? { ok: true, fields } : { ok: false, status: 400, reason: "malformed percent-encoding" };
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
