/** The largest beacon we read. Five metrics with their labels take some 400 bytes. */
export const MAX_BEACON_BYTES = 2 * 1024;

export type JsonBody = { ok: true; value: unknown } | { ok: false; status: 400 | 413; reason: string };

/**
 * Reads an `application/json` body strictly: at most `limit` bytes (the declared length is
 * checked first, then bytes are counted while reading, and reading stops past the limit),
 * valid UTF-8 and valid JSON only.
 */
export async function readJsonBody(request: Request, limit = MAX_BEACON_BYTES): Promise<JsonBody> {
  const declared = request.headers.get("Content-Length");
  if (declared !== null && Number(declared) > limit) {
    return { ok: false, status: 413, reason: "declared length over the limit" };
  }
  const type = request.headers.get("Content-Type")?.split(";")[0]?.trim().toLowerCase();
  if (type !== "application/json") {
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

  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks));
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, status: 400, reason: "body is not valid UTF-8 JSON" };
  }
}
