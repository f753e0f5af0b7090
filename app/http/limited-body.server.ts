/** Reads a request's body as UTF-8 text within a byte limit, refusing a longer or malformed one. */
export type LimitedText = { ok: true; text: string } | { ok: false; status: 400 | 413; reason: string };

/**
 * Reads a request body of one content type strictly: at most `limit` bytes (the declared
 * length is checked first, then bytes are counted while reading, and reading stops past the
 * limit) and valid UTF-8 only. The enquiry form and the field-metrics beacon both read through it.
 */
export async function readLimitedText(
  request: Request,
  options: { contentType: string; limit: number },
): Promise<LimitedText> {
  const { contentType, limit } = options;
  const declared = request.headers.get("Content-Length");
  if (declared !== null && Number(declared) > limit) {
    return { ok: false, status: 413, reason: "declared length over the limit" };
  }
  const type = request.headers.get("Content-Type")?.split(";")[0]?.trim().toLowerCase();
  if (type !== contentType) {
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
    return { ok: true, text: new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks)) };
  } catch {
    return { ok: false, status: 400, reason: "body is not valid UTF-8" };
  }
}
