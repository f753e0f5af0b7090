/** Reads a request's body as UTF-8 text within a byte limit, refusing a longer or malformed one. */
export type LimitedText = { ok: true; text: string } | { ok: false; status: 400 | 413; reason: string };

/**
 * A request body as the reader takes it, from a Fetch request (`fetchBody`) or from Node's own
 * (server/vitals-endpoint.ts): its declared headers and its bytes as they arrive.
 */
export interface BodyInput {
  contentType: string | null;
  contentLength: string | null;
  /** The body's bytes (null: none announced). Leaving the loop early must not close the connection. */
  chunks: AsyncIterable<Uint8Array> | null;
}

/** A Fetch request's body as `readLimitedText` reads it. */
export function fetchBody(request: Request): BodyInput {
  return {
    contentType: request.headers.get("Content-Type"),
    contentLength: request.headers.get("Content-Length"),
    chunks: request.body ? chunksOf(request.body) : null,
  };
}

/** The stream's chunks; stopping early releases it and does not cancel it (which would destroy the socket before the answer). */
async function* chunksOf(body: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

/**
 * Reads a request body of one content type strictly: at most `limit` bytes (the declared
 * length is checked first, then bytes are counted while reading, and reading stops past the
 * limit) and valid UTF-8 only. The enquiry form and the field-metrics beacon both read through it.
 */
export async function readLimitedText(
  input: Request | BodyInput,
  options: { contentType: string; limit: number },
): Promise<LimitedText> {
  const body = input instanceof Request ? fetchBody(input) : input;
  const { contentType, limit } = options;
  if (body.contentLength !== null && Number(body.contentLength) > limit) {
    return { ok: false, status: 413, reason: "declared length over the limit" };
  }
  const type = body.contentType?.split(";")[0]?.trim().toLowerCase();
  if (type !== contentType) {
    return { ok: false, status: 400, reason: `unsupported content type ${JSON.stringify(type ?? null)}` };
  }
  if (!body.chunks) return { ok: false, status: 400, reason: "empty body" };

  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of body.chunks) {
    total += chunk.byteLength;
    if (total > limit) return { ok: false, status: 413, reason: "body over the limit" };
    chunks.push(chunk);
  }

  try {
    return { ok: true, text: new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks)) };
  } catch {
    return { ok: false, status: 400, reason: "body is not valid UTF-8" };
  }
}
