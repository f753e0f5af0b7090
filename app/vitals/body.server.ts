/** Reads a beacon's JSON body within its size limit. */
import { type BodyInput, readLimitedText } from "~/http/limited-body.server";

/**
 * The largest beacon we read. Five metrics with their labels take some 400 bytes; a landing's
 * campaign at most about 1.2 KB more (three tags of 100 characters, a host name).
 */
export const MAX_BEACON_BYTES = 4 * 1024;

export type JsonBody = { ok: true; value: unknown } | { ok: false; status: 400 | 413; reason: string };

/** Reads an `application/json` body of at most `limit` bytes: valid UTF-8 and valid JSON only. */
export async function readJsonBody(input: Request | BodyInput, limit = MAX_BEACON_BYTES): Promise<JsonBody> {
  const body = await readLimitedText(input, { contentType: "application/json", limit });
  if (!body.ok) return body;
  try {
    return { ok: true, value: JSON.parse(body.text) };
  } catch {
    return { ok: false, status: 400, reason: "body is not valid JSON" };
  }
}
